import { randomBytes } from "node:crypto";
import * as l10n from "@vscode/l10n";
import type { Clock } from "./clock";
import { systemClock } from "./clock";
import type { Conversation } from "./conversation";
import { CONVERSATION_SCHEMA_VERSION } from "./conversation";
import type { ConversationMeta, JournalRecord, Revisions } from "./conversationJournal";
import { applyRecord, changedMeta, emptyRevisions, inWrittenOrder, metaOf, readJournal, snapshotText, takeRevisions } from "./conversationJournal";
import { conversationProblem, parseConversationDocument, settleUnfinishedTurns } from "./conversationSchema";
import type { ConversationSummary } from "./conversationSummary";
import { summarize, titleOf } from "./conversationSummary";
import type { DocumentStorage, StorageWatch } from "./documentStorage";
import type { IndexLine } from "./historyIndex";
import { applyIndexLine, damagedMessage, HistoryIndex } from "./historyIndex";
import { ImageStore } from "./imageStore";
import { jsonLine } from "./jsonLines";

// This file is longer than 400 lines because the rules of sharing one conversation between windows
// (snapshot, journals, tombstones, running turns) must be read together to be trusted; its readers and
// writers of single files are already apart (conversationJournal.ts, historyIndex.ts, fileStorage.ts).
// Conversations of one workspace, shared by every window open on it. Under `conversations/` each
// conversation has a snapshot (`<id>.json`) and a journal per window that wrote to it since the last
// compaction (`<id>.<writer>.jsonl`, see conversationJournal.ts): the files are the truth, a window only
// remembers what it last read so that it appends just what it changed. A deleted conversation leaves a
// tombstone (`<id>.deleted`), so a late save from another window cannot bring it back. A turn that another
// live window is answering is left running (its writer's journal is fresh and its process alive); one
// whose window is gone is marked interrupted. The list comes from HistoryIndex; a damaged file is moved
// to `damaged/` with a message and never stops the other conversations from loading.

const CONVERSATIONS_FOLDER = "conversations";
const DAMAGED_FOLDER = "damaged";
const SNAPSHOT_FILE = /^([A-Za-z0-9][A-Za-z0-9_-]*)\.json$/;
const JOURNAL_FILE = /^([A-Za-z0-9][A-Za-z0-9_-]*)\.(w\d+x[0-9a-f]+)\.jsonl$/;
const TOMBSTONE_FILE = /^([A-Za-z0-9][A-Za-z0-9_-]*)\.deleted$/;

/** A writer whose journal was not written or touched for this long is gone, even if its process id is in use. */
export const WRITER_LEASE_MS = 30_000;
/** How often a window answering a turn touches its journal, for the lease (streaming saves touch it too). */
const HEARTBEAT_MS = 5_000;
/** A compaction lock older than this was left by a writer that stopped. */
const LOCK_STALE_MS = 30_000;
/** A journal is folded into the snapshot when a turn ends and it has grown past this. */
const COMPACT_AT_BYTES = 256 * 1024;

export interface HistoryListing {
  /** Newest first. */
  conversations: ConversationSummary[];
  /** Sentences for the user about files that were damaged and set aside; empty when all is well. */
  problems: string[];
}

export type OpenedConversation =
  | {
      ok: true;
      conversation: Conversation;
      notice: string | null;
      /** A turn of it is still being answered in another window (or by this window in the background). */
      runningElsewhere: boolean;
    }
  | { ok: false; problem: string };

export interface HistoryChange {
  /** Conversations whose files another window changed. */
  conversationIds: ReadonlySet<string>;
}

export interface HistoryStoreOptions {
  /** This store's name in journal file names: `w<process id>x<random>`. */
  writer?: string;
  /** Whether a process of this machine still runs (a killed window's turn is interrupted at once). */
  processAlive?: (pid: number) => boolean;
  /** Time for file ages: file times are real even when `clock` is pinned in a test. */
  wallClock?: Clock;
  /** Journal size from which a turn's end folds it into the snapshot. */
  compactAtBytes?: number;
}

interface Known {
  /** Read from an older format: the next save writes the snapshot in the current one. */
  migrated?: boolean;
  meta: ConversationMeta;
  turnIds: Set<string>;
  toolSetIds: Set<string>;
}

interface FolderContents {
  snapshots: Set<string>;
  journals: Map<string, string[]>;
  tombstones: Set<string>;
}

type StateRead =
  | { kind: "missing" }
  | { kind: "damaged"; newer: boolean; problem: string }
  | { kind: "ok"; conversation: Conversation; revisions: Revisions; migratedFrom: number | null; writers: string[] };

export class HistoryStore {
  readonly writer: string;
  /** The images sent with messages, stored once beside the conversations. */
  readonly images: ImageStore;
  private readonly index: HistoryIndex;
  /**
   * Conversations deleted through this store. A turn may still be streaming when its conversation is
   * deleted; its saves afterwards must not bring the conversation back, so they are dropped.
   */
  private readonly deleted = new Set<string>();
  /** What this store last read or wrote of each conversation, so a save appends only what changed. */
  private readonly known = new Map<string, Known>();
  /** Conversations this store is answering a turn of (their journals are kept fresh). */
  private readonly running = new Set<string>();
  private readonly journalBytes = new Map<string, number>();
  private heartbeat: NodeJS.Timeout | null = null;
  private lastAt = 0;
  private pendingProblems: string[] = [];
  /**
   * The list as last read, kept only while the folder is watched (a change by another window drops it)
   * and updated with this window's own changes: the list after each turn costs no file reads.
   */
  private listing: Map<string, ConversationSummary> | null = null;
  /** Conversations deleted (by any window) as of the last folder read. */
  private tombstones = new Set<string>();
  /** Counts the changes other windows made, so a list read while one happened is not kept. */
  private listingGeneration = 0;
  private watching = 0;
  /** Writes run one after another, so this window's records are in order and compaction sees all of them. */
  private writeQueue: Promise<unknown> = Promise.resolve();
  private readonly processAlive: (pid: number) => boolean;
  private readonly wallClock: Clock;
  private readonly compactAtBytes: number;

  constructor(
    private readonly storage: DocumentStorage,
    private readonly clock: Clock = systemClock,
    options: HistoryStoreOptions = {},
  ) {
    this.images = new ImageStore(storage);
    this.writer = options.writer ?? `w${process.pid}x${randomBytes(4).toString("hex")}`;
    this.processAlive = options.processAlive ?? isProcessAlive;
    this.wallClock = options.wallClock ?? systemClock;
    this.compactAtBytes = options.compactAtBytes ?? COMPACT_AT_BYTES;
    this.index = new HistoryIndex(storage, this.writer, (writer) => this.writerProcessAlive(writer));
  }

  async list(): Promise<HistoryListing> {
    const conversations = await this.serialized(() => this.readListing());
    const problems = this.pendingProblems;
    this.pendingProblems = [];
    return { conversations: conversations.sort((a, b) => b.updatedAt - a.updatedAt || a.id.localeCompare(b.id)), problems };
  }

  async open(id: string): Promise<OpenedConversation> {
    return this.serialized(async () => {
      const folder = await this.readFolder();
      let state: StateRead;
      try {
        state = folder.tombstones.has(id) ? { kind: "missing" } : await this.readState(id, folder);
      } catch (error) {
        return { ok: false, problem: l10n.t("The conversation could not be read ({0}).", (error as Error).message) };
      }
      if (state.kind === "missing") {
        await this.appendIndexLine({ at: this.nextAt(), id, deleted: true });
        return { ok: false, problem: l10n.t("The conversation no longer exists; it may have been deleted in another window.") };
      }
      if (state.kind === "damaged") {
        if (state.newer) return { ok: false, problem: l10n.t("The conversation cannot be opened: {0}. It was left untouched.", state.problem) };
        const title = (await this.index.read()).entries.get(id)?.title ?? id;
        const movedTo = await this.setAsideConversation(id, folder);
        return { ok: false, problem: damagedMessage(l10n.t('The conversation "{0}"', title), state.problem, movedTo) };
      }
      const { conversation, revisions } = state;
      const running = new Set<string>();
      for (const turn of conversation.turns) {
        const writer = revisions.turns[turn.id]?.writer;
        if (turn.outcome.kind === "in_progress" && writer !== undefined && (await this.writerIsAnswering(id, writer))) running.add(turn.id);
      }
      settleUnfinishedTurns(conversation, (turnId) => running.has(turnId));
      this.remember(id, knownOf(conversation));
      if (state.migratedFrom !== null) (this.known.get(id) as Known).migrated = true;
      const notices: string[] = [];
      if (state.migratedFrom !== null) notices.push(l10n.t("This conversation was upgraded from an older format (version {0}); it is saved in the new format on the next change.", state.migratedFrom));
      if (running.size > 0) notices.push(RUNNING_ELSEWHERE_NOTICE());
      return { ok: true, conversation, notice: notices.length > 0 ? notices.join(" ") : null, runningElsewhere: running.size > 0 };
    });
  }

  /**
   * Appends what changed to this window's journal: the turns named in `changedTurnIds` (every turn when
   * it is left out) and the conversation's fields that differ from what this store last read or wrote.
   * Another window's turns and fields are never rewritten. A deleted conversation stays deleted.
   */
  async save(conversation: Conversation, changedTurnIds?: readonly string[]): Promise<void> {
    await this.serialized(async () => {
      const id = conversation.id;
      if (this.deleted.has(id)) return;
      const known = this.known.get(id);
      const turns = changedTurnIds === undefined ? conversation.turns : conversation.turns.filter((turn) => changedTurnIds.includes(turn.id));
      const record: JournalRecord = { at: this.nextAt(), meta: changedMeta(conversation, known?.meta) };
      if (turns.length > 0) record.turns = turns;
      const newToolSets = Object.entries(conversation.toolSets ?? {}).filter(([toolSetId]) => !known?.toolSetIds.has(toolSetId));
      if (newToolSets.length > 0) record.toolSets = Object.fromEntries(newToolSets);
      // What this record writes, taken now: the conversation may change while the line is appended (a new
      // turn starting beside a mode change), and what changes then is for the next save to write.
      const written = knownOf(conversation);
      const line = jsonLine(record);
      // Every record survives a kill once appended. Only those that end a turn (or change no turn) also wait
      // for the disk, which costs more than the rest of a short turn's storage: a power loss during a turn
      // can lose that turn's records, never a finished one.
      const underWay = turns.length > 0 && turns.every((turn) => turn.outcome.kind === "in_progress");
      await this.storage.append(journalName(id, this.writer), line, { flush: !underWay });
      this.journalBytes.set(id, (this.journalBytes.get(id) ?? 0) + line.length);
      const listChanged = known === undefined || turns.some((turn) => !known.turnIds.has(turn.id)) || record.meta?.title !== undefined || record.meta?.model !== undefined;
      this.remember(conversation.id, written, known);
      if (listChanged) await this.appendIndexLine(indexLineOf(conversation, record.at, this.known.get(id)?.turnIds.size ?? 0));
      const answering = turns.some((turn) => turn.outcome.kind === "in_progress");
      if (answering) this.startAnswering(id);
      else if (turns.length > 0) this.stopAnswering(id);
      const migrated = this.known.get(id)?.migrated === true;
      if (migrated || (!answering && turns.length > 0 && (this.journalBytes.get(id) ?? 0) >= this.compactAtBytes)) {
        await this.compact(id);
        const entry = this.known.get(id);
        if (entry) entry.migrated = false;
      }
    });
  }

  async rename(id: string, title: string): Promise<OpenedConversation> {
    const opened = await this.open(id);
    if (!opened.ok) return opened;
    opened.conversation.title = title.trim();
    opened.conversation.updatedAt = this.clock.now();
    await this.save(opened.conversation, []);
    return opened;
  }

  async delete(id: string): Promise<void> {
    assertConversationId(id);
    this.deleted.add(id);
    await this.serialized(async () => {
      // The tombstone first: from then on no window lists or opens it, whatever it still writes.
      await this.storage.writeAtomically(tombstoneName(id), "");
      const folder = await this.readFolder();
      await this.storage.remove(snapshotName(id));
      for (const writer of folder.journals.get(id) ?? []) await this.storage.remove(journalName(id, writer));
      this.known.delete(id);
      this.stopAnswering(id);
      await this.appendIndexLine({ at: this.nextAt(), id, deleted: true });
    });
  }

  /**
   * Reports changes other windows make to the history folder (debounced), through the storage's watch.
   * Nothing is reported when the storage cannot watch.
   */
  watch(onChange: (change: HistoryChange) => void, debounceMs = 100): StorageWatch {
    const changed = new Set<string>();
    let timer: NodeJS.Timeout | null = null;
    const noticed = (conversationId: string | null) => {
      if (conversationId !== null) changed.add(conversationId);
      timer ??= setTimeout(() => {
        timer = null;
        const conversationIds = new Set(changed);
        changed.clear();
        onChange({ conversationIds });
      }, debounceMs);
    };
    const ownSuffix = `.${this.writer}.jsonl`;
    const watches = [
      this.storage.watch?.(CONVERSATIONS_FOLDER, (name) => {
        if (name.endsWith(ownSuffix) || name.endsWith(".lock")) return;
        const id = SNAPSHOT_FILE.exec(name)?.[1] ?? JOURNAL_FILE.exec(name)?.[1] ?? TOMBSTONE_FILE.exec(name)?.[1];
        if (id === undefined) return;
        this.dropListing();
        noticed(id);
      }),
      this.storage.watch?.("", (name) => {
        if (!this.index.isOtherWritersFile(name)) return;
        this.dropListing();
        noticed(null);
      }),
    ].filter((watch): watch is StorageWatch => watch !== undefined);
    const watched = watches.length === 2;
    if (watched) this.watching += 1;
    return {
      ready: Promise.all(watches.map((watch) => watch.ready)).then(() => undefined),
      dispose: () => {
        if (timer) clearTimeout(timer);
        for (const watch of watches) watch.dispose();
        if (watched) this.watching -= 1;
        if (this.watching === 0) this.dropListing();
      },
    };
  }

  /** Stops the heartbeat; the journals stay for the other windows. */
  dispose(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  private dropListing(): void {
    this.listing = null;
    this.listingGeneration += 1;
  }

  private async appendIndexLine(line: IndexLine): Promise<void> {
    await this.index.append(line);
    // A turn that still streams into a conversation another window deleted does not bring it back to the list.
    if (this.listing && !this.tombstones.has(line.id)) applyIndexLine(this.listing, line);
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const result = this.writeQueue.then(work);
    this.writeQueue = result.catch(() => undefined);
    return result;
  }

  /** Record times increase per writer even when the clock stands still or goes back. */
  private nextAt(): number {
    this.lastAt = Math.max(this.clock.now(), this.lastAt + 1);
    return this.lastAt;
  }

  private remember(id: string, written: Known, known?: Known): void {
    const entry = known ?? { meta: written.meta, turnIds: new Set<string>(), toolSetIds: new Set<string>() };
    entry.meta = written.meta;
    for (const turnId of written.turnIds) entry.turnIds.add(turnId);
    for (const toolSetId of written.toolSetIds) entry.toolSetIds.add(toolSetId);
    this.known.set(id, entry);
  }

  private startAnswering(id: string): void {
    this.running.add(id);
    this.heartbeat ??= setInterval(() => {
      for (const runningId of this.running) void this.storage.touch(journalName(runningId, this.writer)).catch(() => undefined);
    }, HEARTBEAT_MS);
    this.heartbeat.unref?.();
  }

  private stopAnswering(id: string): void {
    this.running.delete(id);
    if (this.running.size === 0) this.dispose();
  }

  /** Whether `writer` is answering a turn of conversation `id` right now. */
  private async writerIsAnswering(id: string, writer: string): Promise<boolean> {
    if (writer === this.writer) return this.running.has(id);
    if (!this.writerProcessAlive(writer)) return false;
    const modifiedAt = await this.storage.modifiedAt(journalName(id, writer));
    return modifiedAt !== null && this.wallClock.now() - modifiedAt < WRITER_LEASE_MS;
  }

  private writerProcessAlive(writer: string): boolean {
    if (writer === this.writer) return true;
    const pid = Number(/^w(\d+)x/.exec(writer)?.[1]);
    return Number.isInteger(pid) && this.processAlive(pid);
  }

  /** Folds the journals into the snapshot; this writer's journal and those of stopped writers are then removed. */
  private async compact(id: string): Promise<void> {
    const lock = `${CONVERSATIONS_FOLDER}/${id}.lock`;
    // Another window is compacting: the journal stays and is folded in next time.
    if (!(await this.takeLock(lock))) return;
    try {
      const folder = await this.readFolder();
      if (folder.tombstones.has(id)) {
        await this.storage.remove(journalName(id, this.writer));
        return;
      }
      const state = await this.readState(id, folder);
      if (state.kind !== "ok") return;
      await this.storage.writeAtomically(snapshotName(id), snapshotText(state.conversation, state.revisions));
      for (const writer of state.writers) {
        if (writer === this.writer || !this.writerProcessAlive(writer)) await this.storage.remove(journalName(id, writer));
      }
      this.journalBytes.set(id, 0);
    } finally {
      await this.storage.remove(lock);
    }
  }

  private async takeLock(name: string): Promise<boolean> {
    const owner = JSON.stringify({ writer: this.writer });
    if (await this.storage.createExclusively(name, owner)) return true;
    const holder = await this.storage.read(name).catch(() => null);
    const holderWriter = lockHolder(holder);
    const modifiedAt = await this.storage.modifiedAt(name);
    const stale = !this.writerProcessAlive(holderWriter) || modifiedAt === null || this.wallClock.now() - modifiedAt > LOCK_STALE_MS;
    if (!stale) return false;
    await this.storage.remove(name);
    return this.storage.createExclusively(name, owner);
  }

  private async readFolder(): Promise<FolderContents> {
    const contents: FolderContents = { snapshots: new Set(), journals: new Map(), tombstones: new Set() };
    for (const name of await this.storage.list(CONVERSATIONS_FOLDER)) {
      const snapshot = SNAPSHOT_FILE.exec(name);
      if (snapshot) {
        contents.snapshots.add(snapshot[1]);
        continue;
      }
      const journal = JOURNAL_FILE.exec(name);
      if (journal) {
        contents.journals.set(journal[1], [...(contents.journals.get(journal[1]) ?? []), journal[2]]);
        continue;
      }
      const tombstone = TOMBSTONE_FILE.exec(name);
      if (tombstone) contents.tombstones.add(tombstone[1]);
    }
    this.tombstones = contents.tombstones;
    return contents;
  }

  /** The conversation as its snapshot and journals hold it now; running turns are not settled here. */
  private async readState(id: string, folder: FolderContents): Promise<StateRead> {
    const writers = folder.journals.get(id) ?? [];
    const text = folder.snapshots.has(id) ? await this.storage.read(snapshotName(id)) : null;
    const journals = [];
    for (const writer of writers) journals.push({ writer, records: readJournal((await this.storage.read(journalName(id, writer))) ?? "") });
    if (text === null && journals.every((journal) => journal.records.length === 0)) return { kind: "missing" };
    let conversation: Conversation;
    let revisions = emptyRevisions();
    let migratedFrom: number | null = null;
    if (text === null) {
      conversation = { schemaVersion: CONVERSATION_SCHEMA_VERSION, id, title: "", createdAt: 0, updatedAt: 0, model: "", turns: [], activeTurnId: null };
    } else {
      let document: unknown;
      try {
        document = JSON.parse(text);
      } catch (error) {
        return { kind: "damaged", newer: false, problem: l10n.t("it is not valid JSON ({0})", (error as Error).message) };
      }
      revisions = takeRevisions(document);
      const parsed = parseConversationDocument(document);
      if (!parsed.ok) return { kind: "damaged", newer: parsed.reason === "newer", problem: parsed.problem };
      conversation = parsed.conversation;
      migratedFrom = parsed.migratedFrom;
    }
    for (const { writer, record } of inWrittenOrder(journals)) applyRecord(conversation, revisions, record, writer);
    const problem = conversationProblem(conversation);
    if (problem) return { kind: "damaged", newer: false, problem };
    return { kind: "ok", conversation, revisions, migratedFrom, writers };
  }

  private async readListing(): Promise<ConversationSummary[]> {
    if (this.listing) return [...this.listing.values()].map((entry) => ({ ...entry }));
    const generation = this.listingGeneration;
    const folder = await this.readFolder();
    const index = await this.index.read();
    if (index.problem) this.pendingProblems.push(index.problem);
    const ids = new Set([...folder.snapshots, ...folder.journals.keys()]);
    const listed: ConversationSummary[] = [];
    let baseChanged = index.rebuild;
    for (const id of ids) {
      if (folder.tombstones.has(id)) continue;
      const entry = index.entries.get(id);
      if (entry) {
        listed.push(entry);
        continue;
      }
      // Saved but not in the list yet (the process stopped between the two writes), or the list is being rebuilt.
      const summary = await this.summaryFromFiles(id, folder);
      if (summary) listed.push(summary);
      if (!folder.journals.has(id)) baseChanged = true;
    }
    if ([...index.entries.keys()].some((id) => !ids.has(id) || folder.tombstones.has(id))) baseChanged = true;
    if (baseChanged) await this.index.writeBase(listed);
    if (this.watching > 0 && generation === this.listingGeneration) this.listing = new Map(listed.map((entry) => [entry.id, { ...entry }]));
    return listed;
  }

  private async summaryFromFiles(id: string, folder: FolderContents): Promise<ConversationSummary | null> {
    let state: StateRead;
    try {
      state = await this.readState(id, folder);
    } catch (error) {
      this.pendingProblems.push(l10n.t("The conversation file {0} could not be read ({1}); it is left out of the list.", snapshotName(id), (error as Error).message));
      return null;
    }
    if (state.kind === "ok") return summarize(state.conversation);
    if (state.kind === "missing") return null;
    if (state.newer) {
      this.pendingProblems.push(l10n.t("The conversation file {0} is left out of the list: {1}.", snapshotName(id), state.problem));
      return null;
    }
    const movedTo = await this.setAsideConversation(id, folder);
    this.pendingProblems.push(damagedMessage(l10n.t("The conversation file {0}", snapshotName(id)), state.problem, movedTo));
    return null;
  }

  /** Moves a damaged conversation's files out of the way, keeping them for inspection; returns where the first went. */
  private async setAsideConversation(id: string, folder: FolderContents): Promise<string> {
    const names = [...(folder.snapshots.has(id) ? [snapshotName(id)] : []), ...(folder.journals.get(id) ?? []).map((writer) => journalName(id, writer))];
    const moved = [];
    for (const name of names) moved.push(await this.setAside(name));
    await this.appendIndexLine({ at: this.nextAt(), id, deleted: true });
    return moved[0] ?? snapshotName(id);
  }

  private async setAside(name: string): Promise<string> {
    const base = name.split("/").pop() ?? name;
    const target = `${DAMAGED_FOLDER}/${base}.${this.clock.now()}.damaged`;
    try {
      await this.storage.rename(name, target);
      return target;
    } catch {
      // If it cannot be moved (already gone, read-only folder) it is at least left out.
      return name;
    }
  }
}

function RUNNING_ELSEWHERE_NOTICE(): string {
  return l10n.t("A message of this conversation is still being answered in another window. It is shown read-only until that answer ends.");
}

function indexLineOf(conversation: Conversation, at: number, turnCount: number): IndexLine {
  return { at, id: conversation.id, title: titleOf(conversation), model: conversation.model, createdAt: conversation.createdAt, updatedAt: conversation.updatedAt, turnCount };
}

function assertConversationId(id: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(id)) throw new Error(`"${id}" is not a conversation id.`);
}

function snapshotName(id: string): string {
  assertConversationId(id);
  return `${CONVERSATIONS_FOLDER}/${id}.json`;
}

/** What a save of the conversation now writes (or an open read): its fields, turns and tool lists. */
function knownOf(conversation: Conversation): Known {
  return { meta: metaOf(conversation), turnIds: new Set(conversation.turns.map((turn) => turn.id)), toolSetIds: new Set(Object.keys(conversation.toolSets ?? {})) };
}

function journalName(id: string, writer: string): string {
  assertConversationId(id);
  return `${CONVERSATIONS_FOLDER}/${id}.${writer}.jsonl`;
}

function tombstoneName(id: string): string {
  assertConversationId(id);
  return `${CONVERSATIONS_FOLDER}/${id}.deleted`;
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as { code?: unknown }).code === "EPERM";
  }
}

/**
 * The writer a lock file names; "" when it names none. A writer killed between creating the lock and
 * writing its name leaves an empty file: that lock has no live holder, so it counts as stale.
 */
function lockHolder(text: string | null): string {
  if (text === null) return "";
  try {
    const parsed = JSON.parse(text) as { writer?: unknown } | null;
    return typeof parsed?.writer === "string" ? parsed.writer : "";
  } catch {
    return "";
  }
}
