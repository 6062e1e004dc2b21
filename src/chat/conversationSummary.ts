import * as l10n from "@vscode/l10n";
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

/** The name of a conversation whose first message is images only: "Image", "3 images". */
export function imagesTitle(count: number): string {
  return count === 1 ? l10n.t("Image") : l10n.t("{0} images", count);
}

/**
 * Where the attachments of a message start: the panel sends each after the typed text as a tagged block,
 * `<attachment kind="file" label="…">` (src/panel/context/messageAttachments.ts).
 */
const FIRST_ATTACHMENT = /(?:^|\s)<attachment kind="[a-z]+" label="[\s\S]*$/;

/** What the person typed of a message: the attachments the panel added after it left out. */
export function typedTextOf(message: string): string {
  return message.replace(FIRST_ATTACHMENT, "").trimEnd();
}

/** The attachments of a message as sent (tagged blocks), or "" when it has none. */
export function attachedTextOf(message: string): string {
  return message.slice(typedTextOf(message).length).trim();
}

/**
 * A renamed conversation keeps its name; otherwise what the person typed first, on one line, names it (the
 * attachments it carried left out), and a first message of images alone is named after them.
 */
export function titleOf(conversation: Conversation): string {
  if (conversation.title.trim() !== "") return conversation.title;
  const first = conversation.turns.find((turn) => turn.parentId === null);
  const line = typedTextOf(first?.userText ?? "").replace(/\s+/g, " ").trim();
  const images = first?.images?.length ?? 0;
  if (line === "" && images > 0) return imagesTitle(images);
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
