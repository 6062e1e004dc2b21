import type { FunctionToolDefinition } from "../relay/types";
import type { Conversation, Turn } from "./conversation";
import { readJsonLines } from "./jsonLines";

// A conversation on disk is a snapshot plus journals, one journal per writer (window). A writer never
// rewrites the conversation while it streams: it appends a record with what it changed (the turn it is
// answering, the fields it set). Reading applies every journal's records on top of the snapshot, so a
// window reads what another window appended without either overwriting the other; the later record for
// one turn or one field wins. Compaction folds journals into the snapshot (see HistoryStore).

/** The conversation fields a record can set; each is last-writer-wins by record time. */
const META_FIELDS = ["title", "model", "activeTurnId", "createdAt", "rulesOff", "mode", "tasks"] as const;
type MetaField = (typeof META_FIELDS)[number];
export type ConversationMeta = Pick<Conversation, MetaField | "updatedAt">;

export interface JournalRecord {
  /** When it was written (epoch ms, increasing per writer): of two records for one turn or field, the later wins. */
  at: number;
  meta?: Partial<ConversationMeta>;
  /** Whole turns as the writer has them now. */
  turns?: Turn[];
  /** Tool lists first offered in this record. */
  toolSets?: Record<string, FunctionToolDefinition[]>;
}

/** When each turn and field was last written, kept in the snapshot so journals can be applied again safely. */
export interface Revisions {
  /** The writer is kept so a running turn can be told apart: live while its writer is, interrupted after. */
  turns: Record<string, { at: number; writer: string }>;
  meta: Partial<Record<MetaField, number>>;
}

export function emptyRevisions(): Revisions {
  return { turns: {}, meta: {} };
}

/** The records of a journal, in order; lines torn by a crash (or being written right now) are skipped. */
export function readJournal(text: string): JournalRecord[] {
  return readJsonLines(text).filter((record): record is JournalRecord & Record<string, unknown> => typeof record.at === "number");
}

/** Applies a record written by `writer`, unless something later already set what it sets. */
export function applyRecord(conversation: Conversation, revisions: Revisions, record: JournalRecord, writer: string): void {
  const meta = record.meta ?? {};
  for (const field of META_FIELDS) {
    if (meta[field] === undefined || (revisions.meta[field] ?? -Infinity) > record.at) continue;
    (conversation as unknown as Record<string, unknown>)[field] = meta[field];
    revisions.meta[field] = record.at;
  }
  if (typeof meta.updatedAt === "number") conversation.updatedAt = Math.max(conversation.updatedAt, meta.updatedAt);
  for (const turn of record.turns ?? []) {
    if ((revisions.turns[turn.id]?.at ?? -Infinity) > record.at) continue;
    const index = conversation.turns.findIndex((existing) => existing.id === turn.id);
    if (index === -1) conversation.turns.push(turn);
    else conversation.turns[index] = turn;
    revisions.turns[turn.id] = { at: record.at, writer };
  }
  if (record.toolSets) conversation.toolSets = { ...conversation.toolSets, ...record.toolSets };
}

/** Records of several writers, in the order they were written (ties broken by writer, the same for every reader). */
export function inWrittenOrder(journals: ReadonlyArray<{ writer: string; records: JournalRecord[] }>): Array<{ writer: string; record: JournalRecord }> {
  return journals
    .flatMap(({ writer, records }) => records.map((record) => ({ writer, record })))
    .sort((a, b) => a.record.at - b.record.at || (a.writer < b.writer ? -1 : a.writer > b.writer ? 1 : 0));
}

/** The meta fields of `conversation` that differ from `known` (all of them when nothing is known). */
export function changedMeta(conversation: Conversation, known: ConversationMeta | undefined): Partial<ConversationMeta> {
  const changed: Partial<ConversationMeta> = { updatedAt: conversation.updatedAt };
  for (const field of META_FIELDS) {
    if (!known || known[field] !== conversation[field]) (changed as Record<string, unknown>)[field] = conversation[field];
  }
  return changed;
}

export function metaOf(conversation: Conversation): ConversationMeta {
  const { title, model, activeTurnId, createdAt, updatedAt, rulesOff, mode, tasks } = conversation;
  return { title, model, activeTurnId, createdAt, updatedAt, mode, tasks, ...(rulesOff ? { rulesOff } : {}) };
}

/** The snapshot file's text: the conversation as always, plus the revisions of what it holds. */
export function snapshotText(conversation: Conversation, revisions: Revisions): string {
  return JSON.stringify({ ...conversation, revisions });
}

/** Takes the revisions out of a parsed snapshot document (older files have none: everything in them is oldest). */
export function takeRevisions(document: unknown): Revisions {
  if (typeof document !== "object" || document === null || !("revisions" in document)) return emptyRevisions();
  const { revisions } = document as { revisions: unknown };
  delete (document as { revisions?: unknown }).revisions;
  if (typeof revisions !== "object" || revisions === null) return emptyRevisions();
  const { turns, meta } = revisions as Partial<Revisions>;
  return { turns: typeof turns === "object" && turns !== null ? turns : {}, meta: typeof meta === "object" && meta !== null ? meta : {} };
}
