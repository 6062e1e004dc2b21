import * as l10n from "@vscode/l10n";
import { isObject } from "../relay/outputItems";
import type { ConversationSummary } from "./conversationSummary";
import type { DocumentStorage } from "./documentStorage";
import { jsonLine, readJsonLines } from "./jsonLines";

// The history list without opening every conversation: `index.json` (a cache, rebuilt from the
// conversation files when missing or damaged) plus one small journal per window (`index.<writer>.jsonl`)
// where a window appends a line when what the list shows changes (a new conversation or turn, a new
// title, a deletion). Windows never rewrite each other's lines, so none loses another's update; a
// window folds its own lines into `index.json` once it has written many.

const INDEX_NAME = "index.json";
const INDEX_SCHEMA_VERSION = 1;
const INDEX_JOURNAL = /^index\.(w\d+x[0-9a-f]+)\.jsonl$/;
const DAMAGED_FOLDER = "damaged";
/** Lines after which a window folds its index journal into index.json. */
const FOLD_AFTER_LINES = 200;

export interface IndexLine {
  at: number;
  id: string;
  deleted?: true;
  title?: string;
  model?: string;
  createdAt?: number;
  updatedAt?: number;
  turnCount?: number;
}

export interface IndexRead {
  entries: Map<string, ConversationSummary>;
  /** A sentence for the user when index.json was damaged (it was set aside). */
  problem: string | null;
  /** index.json is missing or was set aside: it is to be written again from the files. */
  rebuild: boolean;
}

export class HistoryIndex {
  private linesWritten = 0;

  constructor(
    private readonly storage: DocumentStorage,
    private readonly writer: string,
    private readonly writerAlive: (writer: string) => boolean,
  ) {}

  async read(): Promise<IndexRead> {
    const { entries, problem, rebuild } = await this.readBase();
    // Without index.json every entry is read again from the conversation files.
    if (rebuild) return { entries, problem, rebuild };
    const titleAt = new Map<string, number>();
    const journals = [];
    for (const writer of await this.journalWriters()) journals.push(...readLines((await this.storage.read(journalName(writer))) ?? ""));
    journals.sort((a, b) => a.at - b.at);
    for (const line of journals) applyIndexLine(entries, line, titleAt);
    return { entries, problem, rebuild };
  }

  async append(line: IndexLine): Promise<void> {
    // The list is a cache of the conversation files (rebuilt from them when a line is missing): not flushed.
    await this.storage.append(journalName(this.writer), jsonLine(line), { flush: false });
    this.linesWritten += 1;
    if (this.linesWritten >= FOLD_AFTER_LINES) await this.fold();
  }

  async writeBase(conversations: readonly ConversationSummary[]): Promise<void> {
    await this.storage.writeAtomically(INDEX_NAME, JSON.stringify({ schemaVersion: INDEX_SCHEMA_VERSION, conversations }));
  }

  /** A file of the list written by another window (this window's own changes need no telling). */
  isOtherWritersFile(name: string): boolean {
    if (name === INDEX_NAME) return true;
    const writer = INDEX_JOURNAL.exec(name)?.[1];
    return writer !== undefined && writer !== this.writer;
  }

  /** Folds this window's lines (and those of stopped windows) into index.json. */
  private async fold(): Promise<void> {
    const writers = await this.journalWriters();
    const { entries } = await this.read();
    await this.writeBase([...entries.values()]);
    for (const writer of writers) if (writer === this.writer || !this.writerAlive(writer)) await this.storage.remove(journalName(writer));
    this.linesWritten = 0;
  }

  private async journalWriters(): Promise<string[]> {
    return (await this.storage.list("")).flatMap((name) => INDEX_JOURNAL.exec(name)?.[1] ?? []);
  }

  private async readBase(): Promise<IndexRead> {
    let text: string | null;
    try {
      text = await this.storage.read(INDEX_NAME);
    } catch (error) {
      return { entries: new Map(), rebuild: true, problem: l10n.t("The conversation list could not be read ({0}); it was rebuilt from the conversation files.", (error as Error).message) };
    }
    if (text === null) return { entries: new Map(), problem: null, rebuild: true };
    const entries = parseIndex(text);
    if (entries) return { entries: new Map(entries.map((entry) => [entry.id, entry])), problem: null, rebuild: false };
    let movedTo = INDEX_NAME;
    try {
      movedTo = `${DAMAGED_FOLDER}/${INDEX_NAME}.${Date.now()}.damaged`;
      await this.storage.rename(INDEX_NAME, movedTo);
    } catch {
      movedTo = INDEX_NAME;
    }
    const problem = `${damagedMessage(l10n.t("The conversation list"), l10n.t("it is not in the expected format"), movedTo)} ${l10n.t("The list was rebuilt from the conversation files.")}`;
    return { entries: new Map(), problem, rebuild: true };
  }
}

/** Applies one line to the list: a deletion, or what changed (the later title wins, the larger time and count). */
export function applyIndexLine(entries: Map<string, ConversationSummary>, line: IndexLine, titleAt = new Map<string, number>()): void {
  if (line.deleted) {
    entries.delete(line.id);
    return;
  }
  const entry = entries.get(line.id) ?? { id: line.id, title: "", createdAt: line.createdAt ?? 0, updatedAt: 0, model: "", turnCount: 0 };
  if (line.at >= (titleAt.get(line.id) ?? -Infinity)) {
    if (line.title !== undefined) entry.title = line.title;
    if (line.model !== undefined) entry.model = line.model;
    titleAt.set(line.id, line.at);
  }
  entry.updatedAt = Math.max(entry.updatedAt, line.updatedAt ?? 0);
  entry.turnCount = Math.max(entry.turnCount, line.turnCount ?? 0);
  entries.set(line.id, entry);
}

export function damagedMessage(what: string, problem: string, movedTo: string): string {
  return l10n.t("{0} could not be read because {1}. It was moved to {2} in the Relay Chat storage folder; the other conversations are unaffected.", what, problem, movedTo);
}

function journalName(writer: string): string {
  return `index.${writer}.jsonl`;
}

function readLines(text: string): IndexLine[] {
  return readJsonLines(text).filter((line): line is IndexLine & Record<string, unknown> => typeof line.at === "number" && typeof line.id === "string");
}

function parseIndex(text: string): ConversationSummary[] | null {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(document) || document.schemaVersion !== INDEX_SCHEMA_VERSION || !Array.isArray(document.conversations)) return null;
  const entries = document.conversations;
  const valid = entries.every(
    (entry) =>
      isObject(entry) &&
      typeof entry.id === "string" &&
      typeof entry.title === "string" &&
      typeof entry.model === "string" &&
      typeof entry.createdAt === "number" &&
      typeof entry.updatedAt === "number" &&
      typeof entry.turnCount === "number",
  );
  return valid ? (entries as unknown as ConversationSummary[]) : null;
}
