import { chatReasoningOf, isPortableChatReasoning } from "../relay/chatCompletions/chatReasoning";
import { userMessage } from "../relay/requestBuilder";
import type { InputItem } from "../relay/types";
import { answerTextOf } from "./answerText";
import { summaryIndexIn, summaryItem, summaryText } from "./compaction";
import type { Conversation, RequestRecord, Turn } from "./conversation";
import { pathTo } from "./conversation";

// Pure rules for what goes over the wire. The service keeps no history, so every request carries the
// whole branch: the items of each completed turn, unchanged and in order. A turn that did not complete
// (incomplete, failed, interrupted, cancelled...) stays in the conversation for display but is skipped,
// because its half-finished items would teach the model an answer that never happened.

/**
 * The history items a turn adds: each request's input, then its output when it completed. Sent to `relay`,
 * reasoning items another relay produced are left out: their encrypted content is that relay's (or its
 * provider's) and another one cannot read it. Reasoning a model gave as plain text over Chat Completions is its
 * own words and goes anywhere (stripping it would make a thinking model refuse the history, chatReasoning.ts).
 * Requests saved before relays were recorded count as any relay's.
 */
export function turnHistoryItems(turn: Turn, relay?: string): InputItem[] {
  if (turn.legacyItems) return turn.legacyItems;
  return requestItems(turn.requests, relay);
}

/**
 * The history a new turn placed after `parentId` starts from (for a request to `relay`): where a summary
 * is in effect on the branch, the summary and then the turns after the one it is stored on.
 */
export function historyItemsBefore(conversation: Conversation, parentId: string | null, relay?: string): InputItem[] {
  const path = pathTo(conversation, parentId);
  const summarized = summaryIndexIn(path);
  const summary = summarized < 0 ? null : summaryText(path[summarized]?.summary);
  const items: InputItem[] = summary === null ? [] : [summaryItem(summary)];
  for (const turn of path.slice(summarized + 1)) {
    if (turn.outcome.kind === "completed") items.push(...turnHistoryItems(turn, relay));
    else if (isIncludedIncomplete(turn)) items.push(...includedIncompleteItems(turn));
  }
  return items;
}

/** Whether a turn goes with later messages: a completed one, or an incomplete one the person chose to include. */
export function isSentWithLaterMessages(turn: Turn): boolean {
  return turn.outcome.kind === "completed" || isIncludedIncomplete(turn);
}

function isIncludedIncomplete(turn: Turn): boolean {
  return turn.outcome.kind === "incomplete" && turn.includeIncomplete === true;
}

/**
 * An incomplete turn the person included: its first request's input (the review note and the message, images
 * and all) and the partial answer as one plain assistant message. Not the incomplete output items: they may
 * hold a half-written function call or an item with `status: "incomplete"` (see continuationItems).
 */
function includedIncompleteItems(turn: Turn): InputItem[] {
  const partial = answerTextOf(turn);
  return [...(turn.requests[0]?.input ?? []), ...(partial === "" ? [] : [{ type: "message", role: "assistant", content: partial } satisfies InputItem])];
}

/**
 * The history in front of request `requestIndex` of a turn (the items it was, or will be, sent after its
 * own `input`): the branch before the turn, then the turn's earlier requests.
 */
export function historyBeforeRequest(conversation: Conversation, turn: Turn, requestIndex: number, relay?: string): InputItem[] {
  return [...historyItemsBefore(conversation, turn.parentId, relay), ...requestItems(turn.requests.slice(0, requestIndex), relay)];
}

/** The items the next request of a turn that is being worked on starts from (before its own input). */
export function requestInputFor(conversation: Conversation, turn: Turn, relay?: string): InputItem[] {
  return historyBeforeRequest(conversation, turn, turn.requests.length, relay);
}

/** How many reasoning items of the history a request to `relay` leaves out because another relay produced them. */
export function reasoningFromOtherRelays(conversation: Conversation, turn: Turn, relay: string): number {
  const requests = [...pathTo(conversation, turn.parentId).filter((each) => each.outcome.kind === "completed" && !each.legacyItems), turn].flatMap((each) => each.requests);
  return requests
    .filter((request) => fromOtherRelay(request, relay) && request.outcome.kind === "completed")
    .reduce((count, request) => count + request.output.filter(staysWithItsRelay).length, 0);
}

/** What the next new message on the active branch would be sent after. */
export function activeHistoryItems(conversation: Conversation): InputItem[] {
  return historyItemsBefore(conversation, conversation.activeTurnId);
}

/**
 * The items actually sent over `protocol`. Under `store: false` the service keeps nothing, so on the Responses
 * interface a reasoning item can only be resent with its `encrypted_content`; one without it would fail the
 * whole request ("Item with id 'rs_…' not found"). Reasoning read from Chat Completions goes back over that wire
 * only (chatReasoning.ts); Responses reasoning stays in for Chat Completions too, where the adapter leaves it out
 * and counts it. Items left out stay in the conversation for display.
 */
export function sendableItems(items: readonly InputItem[], protocol?: "chat"): InputItem[] {
  return items.filter((item) => item.type !== "reasoning" || hasEncryptedReasoning(item) || (protocol === "chat" && chatReasoningOf(item) !== null));
}

/** How many reasoning items read from Chat Completions a request over the Responses interface leaves out. */
export function chatReasoningLeftOfResponses(items: readonly InputItem[]): number {
  return items.filter((item) => chatReasoningOf(item) !== null).length;
}

function hasEncryptedReasoning(item: InputItem): boolean {
  return typeof item.encrypted_content === "string" && item.encrypted_content !== "";
}

/** A reasoning item another relay cannot take: all but plain-text Chat Completions reasoning. */
function staysWithItsRelay(item: InputItem): boolean {
  if (item.type !== "reasoning") return false;
  const carried = chatReasoningOf(item);
  return carried === null || !isPortableChatReasoning(carried);
}

export const ENCRYPTED_REASONING = "reasoning.encrypted_content";

/**
 * Whether to ask for `reasoning.encrypted_content`: only where reasoning is used (a model that never
 * reasons may reject the option), that is when this model already produced reasoning items on the branch.
 */
export function wantsEncryptedReasoning(conversation: Conversation, turn: Turn, model: string): boolean {
  const turns = [...pathTo(conversation, turn.parentId), turn];
  return turns.some((each) => each.requests.some((request) => request.model === model && request.output.some((item) => item.type === "reasoning")));
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

function requestItems(requests: readonly RequestRecord[], relay: string | undefined): InputItem[] {
  const items: InputItem[] = [];
  for (const request of requests) {
    items.push(...request.input);
    if (request.outcome.kind !== "completed") continue;
    items.push(...(relay !== undefined && fromOtherRelay(request, relay) ? request.output.filter((item) => !staysWithItsRelay(item)) : request.output));
  }
  return items;
}

function fromOtherRelay(request: RequestRecord, relay: string): boolean {
  return request.relay !== undefined && request.relay !== relay;
}
