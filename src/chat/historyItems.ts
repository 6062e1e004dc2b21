import { outputTextOf } from "../relay/accumulate";
import { userMessage } from "../relay/requestBuilder";
import type { InputItem, OutputItem } from "../relay/types";
import type { Conversation, Turn } from "./conversation";
import { pathTo } from "./conversation";

// Pure rules for what goes over the wire. The service keeps no history, so every request carries the
// whole branch: the items of each completed turn, unchanged and in order. A turn that did not complete
// (incomplete, failed, interrupted, cancelled...) stays in the conversation for display but is skipped,
// because its half-finished items would teach the model an answer that never happened.

/** The history a new turn placed after `parentId` starts from. */
export function historyItemsBefore(conversation: Conversation, parentId: string | null): InputItem[] {
  const items: InputItem[] = [];
  for (const turn of pathTo(conversation, parentId)) {
    if (turn.outcome.kind === "completed") items.push(...turn.items);
  }
  return items;
}

/** The exact `input` of the next request for a turn that is being worked on. */
export function requestInputFor(conversation: Conversation, turn: Turn): InputItem[] {
  return [...historyItemsBefore(conversation, turn.parentId), ...turn.items];
}

/** What the next new message on the active branch would be sent after. */
export function activeHistoryItems(conversation: Conversation): InputItem[] {
  return historyItemsBefore(conversation, conversation.activeTurnId);
}

/**
 * The answer as the user reads it: assistant text from the turn's items (output messages and a carried
 * partial answer), then, for a turn that did not complete, the partial text of its last request.
 */
export function answerTextOf(turn: Turn): string {
  let text = "";
  for (const item of turn.items) {
    if (item.type === "message" && Array.isArray(item.content)) text += outputTextOf([item as OutputItem]);
    else if (item.role === "assistant" && typeof item.content === "string") text += item.content;
  }
  return turn.outcome.kind === "completed" ? text : text + turn.partialText;
}

/** The message that asks the model to go on after an `incomplete` answer (see ChatSession.continueTurn). */
export const CONTINUE_PROMPT = "Continue exactly where your previous answer stopped. Do not repeat what you already wrote.";

/**
 * The partial answer is carried as a plain assistant message, the form the spec shows, rather than as the
 * incomplete output items: those may hold a half-written function call (which would need an output) or an
 * item with `status: "incomplete"`, which relays do not all accept as input.
 */
export function continuationItems(partialText: string): InputItem[] {
  const items: InputItem[] = [];
  if (partialText !== "") items.push({ type: "message", role: "assistant", content: partialText });
  items.push(userMessage(CONTINUE_PROMPT));
  return items;
}
