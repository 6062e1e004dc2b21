import * as l10n from "@vscode/l10n";
import { isObject } from "../relay/outputItems";
import type { Conversation, RequestRecord } from "./conversation";
import { CONVERSATION_SCHEMA_VERSION } from "./conversation";
import { CONTINUE_PROMPT } from "./historyItems";

// Reading a conversation file: parse, migrate older layouts step by step to the current one, and check the
// shape before anything trusts it. A file that fails here is treated as damaged by the HistoryStore.

export type ConversationParse =
  | { ok: true; conversation: Conversation; migratedFrom: number | null }
  /** `newer` means a later version of the extension wrote it: not damaged, just not readable here. */
  | { ok: false; reason: "damaged" | "newer"; problem: string };

type JsonRecord = Record<string, unknown>;
type Migration = (document: JsonRecord) => JsonRecord;


/**
 * MIGRATIONS[n] turns a version-n document into version n+1.
 * - 0 -> 1: version 0 is the layout written before files carried a version: no `schemaVersion`, and no
 *   `activeTurnId` (the newest turn was the one on screen).
 * - 1 -> 2: version 1 kept a turn's history items in `turn.items`, which repeated every completed
 *   request's `output`, plus `partialText`. Version 2 keeps each item once: a request's `input` holds what
 *   it added to the history, its `output` what it received (migrateTurnItems).
 */
const MIGRATIONS: Record<number, Migration> = {
  0: (document) => {
    const turns = Array.isArray(document.turns) ? document.turns : [];
    const last = turns[turns.length - 1];
    return { ...document, schemaVersion: 1, activeTurnId: isObject(last) && typeof last.id === "string" ? last.id : null };
  },
  1: (document) => ({ ...document, schemaVersion: 2, turns: Array.isArray(document.turns) ? document.turns.map((turn) => (isObject(turn) ? migrateTurnItems(turn) : turn)) : document.turns }),
};

export function parseConversation(text: string): ConversationParse {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: "damaged", problem: l10n.t("it is not valid JSON ({0})", (error as Error).message) };
  }
  const parsed = parseConversationDocument(document);
  if (parsed.ok) settleUnfinishedTurns(parsed.conversation, () => false);
  return parsed;
}

/**
 * A parsed document migrated and checked, with turns saved while running left as they are: the caller
 * settles them (settleUnfinishedTurns) once it knows which are still running in another window.
 */
export function parseConversationDocument(document: unknown): ConversationParse {
  if (!isObject(document)) return { ok: false, reason: "damaged", problem: l10n.t("it does not hold a conversation object") };
  const version = document.schemaVersion === undefined ? 0 : document.schemaVersion;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 0) {
    return { ok: false, reason: "damaged", problem: l10n.t("its schema version {0} is not a version number", JSON.stringify(version)) };
  }
  if (version > CONVERSATION_SCHEMA_VERSION) {
    return { ok: false, reason: "newer", problem: l10n.t("it was written by a newer version of Relay Chat (schema {0}, this one reads up to {1})", version, CONVERSATION_SCHEMA_VERSION) };
  }
  let migrated: JsonRecord = document;
  for (let step = version; step < CONVERSATION_SCHEMA_VERSION; step += 1) {
    const problem = step === 1 ? versionOneProblem(migrated) : null;
    if (problem) return { ok: false, reason: "damaged", problem };
    migrated = MIGRATIONS[step](migrated);
  }
  const problem = shapeProblem(migrated);
  if (problem) return { ok: false, reason: "damaged", problem };
  return { ok: true, conversation: migrated as unknown as Conversation, migratedFrom: version === CONVERSATION_SCHEMA_VERSION ? null : version };
}

/** Why a conversation (after journal records were applied to it) is damaged, or null. */
export function conversationProblem(conversation: Conversation): string | null {
  return shapeProblem(conversation as unknown as JsonRecord);
}

export function serializeConversation(conversation: Conversation): string {
  return JSON.stringify(conversation);
}

/**
 * Splits a version-1 turn's `items` among its requests. Each request added known items before it was sent
 * (by purpose: the user message, tool results, the Continue pair, nothing for a Retry), and a completed
 * request's output follows them. When the items cannot be matched that way (a hand-edited file), a
 * completed turn keeps them verbatim in `legacyItems`, so what is resent never changes.
 */
function migrateTurnItems(turn: JsonRecord): JsonRecord {
  const { items: rawItems, partialText: _partialText, ...rest } = turn;
  const items = Array.isArray(rawItems) ? rawItems.filter(isObject) : [];
  const requests = Array.isArray(turn.requests) ? turn.requests.filter(isObject) : [];
  let position = 0;
  let matched = true;
  const migratedRequests = requests.map((request) => {
    const input = takeRequestInput(String(request.purpose), items, position);
    position += input.length;
    const output = Array.isArray(request.output) ? request.output : [];
    if (isObject(request.outcome) && request.outcome.kind === "completed") {
      if (sameItems(items.slice(position, position + output.length), output)) position += output.length;
      else matched = false;
    }
    return { ...request, input };
  });
  const completed = isObject(turn.outcome) && turn.outcome.kind === "completed";
  if (position !== items.length) matched = false;
  return { ...rest, requests: migratedRequests, ...(completed && !matched ? { legacyItems: items } : {}) };
}

function takeRequestInput(purpose: string, items: readonly JsonRecord[], position: number): JsonRecord[] {
  const at = (offset: number) => items[position + offset];
  switch (purpose) {
    case "send":
      return at(0)?.role === "user" ? [at(0)] : [];
    case "tool_follow_up": {
      const outputs: JsonRecord[] = [];
      while (at(outputs.length)?.type === "function_call_output") outputs.push(at(outputs.length));
      return outputs;
    }
    case "continue": {
      const partial = at(0)?.role === "assistant" && typeof at(0)?.content === "string" ? [at(0)] : [];
      const prompt = at(partial.length);
      return prompt?.role === "user" && prompt.content === CONTINUE_PROMPT ? [...partial, prompt] : partial;
    }
    default:
      return [];
  }
}

function sameItems(left: readonly unknown[], right: readonly unknown[]): boolean {
  return left.length === right.length && JSON.stringify(left) === JSON.stringify(right);
}

function versionOneProblem(document: JsonRecord): string | null {
  if (!Array.isArray(document.turns)) return l10n.t('the field "turns" is not a list');
  for (const [index, turn] of document.turns.entries()) {
    if (isObject(turn) && (!Array.isArray(turn.items) || !turn.items.every(isObject))) return l10n.t("turn {0} has damaged items", index);
  }
  return null;
}

function shapeProblem(document: JsonRecord): string | null {
  for (const field of ["id", "title", "model"]) if (typeof document[field] !== "string") return l10n.t('the field "{0}" is missing or not text', field);
  for (const field of ["createdAt", "updatedAt"]) if (typeof document[field] !== "number") return l10n.t('the field "{0}" is missing or not a number', field);
  if (document.activeTurnId !== null && typeof document.activeTurnId !== "string") return l10n.t('the field "activeTurnId" is not a turn id');
  if (!Array.isArray(document.turns)) return l10n.t('the field "turns" is not a list');
  if (document.toolSets !== undefined && !isObject(document.toolSets)) return l10n.t('the field "toolSets" is not an object');
  for (const [index, turn] of document.turns.entries()) {
    if (!isObject(turn)) return l10n.t("turn {0} is not an object", index);
    if (typeof turn.id !== "string" || (turn.parentId !== null && typeof turn.parentId !== "string")) return l10n.t("turn {0} has no valid id or parent", index);
    if (typeof turn.userText !== "string" || typeof turn.createdAt !== "number") return l10n.t("turn {0} has no user text or time", index);
    if (!Array.isArray(turn.requests) || !Array.isArray(turn.toolCalls)) return l10n.t("turn {0} has damaged request records", index);
    for (const request of turn.requests) {
      if (!isObject(request) || !Array.isArray(request.input) || !request.input.every(isObject) || !Array.isArray(request.output) || !request.output.every(isObject)) {
        return l10n.t("turn {0} has a damaged request record", index);
      }
      if (!isObject(request.outcome) || typeof request.outcome.kind !== "string") return l10n.t("turn {0} has a request without an outcome", index);
    }
    if (turn.legacyItems !== undefined && (!Array.isArray(turn.legacyItems) || !turn.legacyItems.every(isObject))) return l10n.t("turn {0} has damaged items", index);
    if (!isObject(turn.outcome) || typeof turn.outcome.kind !== "string") return l10n.t("turn {0} has no outcome", index);
  }
  return cycleProblem(document.turns as Array<{ id: string; parentId: string | null }>);
}

/** A turn that is (through its parents) its own parent would make every walk up or down the branch endless. */
function cycleProblem(turns: ReadonlyArray<{ id: string; parentId: string | null }>): string | null {
  const parentOf = new Map(turns.map((turn) => [turn.id, turn.parentId]));
  const settled = new Set<string>();
  for (const [index, turn] of turns.entries()) {
    const onPath = new Set<string>();
    for (let id: string | null = turn.id; id !== null && !settled.has(id); id = parentOf.get(id) ?? null) {
      if (onPath.has(id)) return l10n.t("turn {0} is its own parent (through its earlier turns)", index);
      onPath.add(id);
    }
    for (const id of onPath) settled.add(id);
  }
  return null;
}

/**
 * A turn saved while running belongs to a process that is gone (closed, crashed, killed): it and the
 * request that was running are interrupted, keeping the text that was saved and the request id, with a
 * notice saying the relay may still have billed it. Such a turn is never sent again. A turn another
 * live window is still answering (`isRunning`) is left as it is.
 */
export function settleUnfinishedTurns(conversation: Conversation, isRunning: (turnId: string) => boolean): void {
  for (const turn of conversation.turns) {
    if (isRunning(turn.id)) continue;
    for (const request of turn.summary?.requests ?? []) if (request.outcome.kind === "in_progress") settleStoppedRequest(request);
    if (turn.outcome.kind !== "in_progress") continue;
    let requestId: string | null = null;
    let stoppedInRequest = false;
    for (const request of turn.requests) {
      if (request.outcome.kind !== "in_progress") continue;
      settleStoppedRequest(request);
      requestId = request.requestId ?? requestId;
      stoppedInRequest = true;
    }
    const last = turn.requests[turn.requests.length - 1];
    turn.outcome = last && last.outcome.kind === "interrupted" ? last.outcome : { kind: "interrupted", bytes: 0, events: 0, reason: "client_stopped" };
    turn.notice = stoppedInRequest
      ? requestId
        ? l10n.t("Relay Chat stopped during this request. What had arrived is kept, and this answer is not sent with later messages. The relay may have finished and billed it: look up request id {0} in its usage log.", requestId)
        : l10n.t("Relay Chat stopped during this request. What had arrived is kept, and this answer is not sent with later messages.")
      : l10n.t("Relay Chat stopped between the requests of this turn (while tool calls were handled); it is not sent with later messages.");
  }
}

/** A request saved while running, whose process is gone: interrupted, keeping what had arrived. */
function settleStoppedRequest(request: RequestRecord): void {
  const received = request.received ?? { bytes: 0, events: 0 };
  request.outcome = { kind: "interrupted", bytes: received.bytes, events: received.events, reason: "client_stopped" };
  request.explanation = l10n.t("Relay Chat stopped during this request. The relay may have finished and billed it; look it up in its usage log before sending again.");
}
