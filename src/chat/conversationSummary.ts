import type { Conversation } from "./conversation";

/** One line of the history list; everything the list shows without opening the conversation file. */
export interface ConversationSummary {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  model: string;
  turnCount: number;
}

const TITLE_LENGTH = 80;

/** A renamed conversation keeps its name; otherwise the first user message, on one line, names it. */
export function titleOf(conversation: Conversation): string {
  if (conversation.title.trim() !== "") return conversation.title;
  const first = conversation.turns.find((turn) => turn.parentId === null);
  const line = (first?.userText ?? "").replace(/\s+/g, " ").trim();
  if (line === "") return "New conversation";
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line;
}

export function summarize(conversation: Conversation): ConversationSummary {
  return {
    id: conversation.id,
    title: titleOf(conversation),
    createdAt: conversation.createdAt,
    updatedAt: conversation.updatedAt,
    model: conversation.model,
    turnCount: conversation.turns.length,
  };
}
