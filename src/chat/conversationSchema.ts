import { isObject } from "../relay/accumulate";
import type { Conversation } from "./conversation";
import { CONVERSATION_SCHEMA_VERSION } from "./conversation";

// Reading a conversation file: parse, migrate older layouts step by step to the current one, and check the
// shape before anything trusts it. A file that fails here is treated as damaged by the HistoryStore.

export type ConversationParse =
  | { ok: true; conversation: Conversation; migratedFrom: number | null }
  /** `newer` means a later version of the extension wrote it: not damaged, just not readable here. */
  | { ok: false; reason: "damaged" | "newer"; problem: string };

type Migration = (document: Record<string, unknown>) => Record<string, unknown>;

/**
 * MIGRATIONS[n] turns a version-n document into version n+1. Version 0 is the layout written before files
 * carried a version: no `schemaVersion`, and no `activeTurnId` (the newest turn was the one on screen).
 */
const MIGRATIONS: Record<number, Migration> = {
  0: (document) => {
    const turns = Array.isArray(document.turns) ? document.turns : [];
    const last = turns[turns.length - 1];
    return { ...document, schemaVersion: 1, activeTurnId: isObject(last) && typeof last.id === "string" ? last.id : null };
  },
};

export function parseConversation(text: string): ConversationParse {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: "damaged", problem: `it is not valid JSON (${(error as Error).message})` };
  }
  if (!isObject(document)) return { ok: false, reason: "damaged", problem: "it does not hold a conversation object" };
  const version = document.schemaVersion === undefined ? 0 : document.schemaVersion;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 0) {
    return { ok: false, reason: "damaged", problem: `its schema version ${JSON.stringify(version)} is not a version number` };
  }
  if (version > CONVERSATION_SCHEMA_VERSION) {
    return { ok: false, reason: "newer", problem: `it was written by a newer version of Relay Chat (schema ${version}, this one reads up to ${CONVERSATION_SCHEMA_VERSION})` };
  }
  let migrated: Record<string, unknown> = document;
  for (let step = version; step < CONVERSATION_SCHEMA_VERSION; step += 1) migrated = MIGRATIONS[step](migrated);
  const problem = shapeProblem(migrated);
  if (problem) return { ok: false, reason: "damaged", problem };
  const conversation = migrated as unknown as Conversation;
  settleUnfinishedTurns(conversation);
  return { ok: true, conversation, migratedFrom: version === CONVERSATION_SCHEMA_VERSION ? null : version };
}

export function serializeConversation(conversation: Conversation): string {
  return JSON.stringify(conversation);
}

function shapeProblem(document: Record<string, unknown>): string | null {
  for (const field of ["id", "title", "model"]) if (typeof document[field] !== "string") return `the field "${field}" is missing or not text`;
  for (const field of ["createdAt", "updatedAt"]) if (typeof document[field] !== "number") return `the field "${field}" is missing or not a number`;
  if (document.activeTurnId !== null && typeof document.activeTurnId !== "string") return `the field "activeTurnId" is not a turn id`;
  if (!Array.isArray(document.turns)) return `the field "turns" is not a list`;
  for (const [index, turn] of document.turns.entries()) {
    if (!isObject(turn)) return `turn ${index} is not an object`;
    if (typeof turn.id !== "string" || (turn.parentId !== null && typeof turn.parentId !== "string")) return `turn ${index} has no valid id or parent`;
    if (typeof turn.userText !== "string" || typeof turn.createdAt !== "number") return `turn ${index} has no user text or time`;
    if (!Array.isArray(turn.items) || !turn.items.every(isObject)) return `turn ${index} has damaged items`;
    if (!Array.isArray(turn.requests) || !Array.isArray(turn.toolCalls)) return `turn ${index} has damaged request records`;
    if (!isObject(turn.outcome) || typeof turn.outcome.kind !== "string") return `turn ${index} has no outcome`;
  }
  return null;
}

/** A turn saved while running belongs to a process that is gone: show it as not finished, never as running. */
function settleUnfinishedTurns(conversation: Conversation): void {
  for (const turn of conversation.turns) {
    if (turn.outcome.kind === "in_progress") {
      turn.outcome = { kind: "not_finished" };
      turn.notice = "Relay Chat stopped while this answer was in progress; it was not finished and is not sent.";
    }
  }
}
