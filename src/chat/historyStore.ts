import * as l10n from "@vscode/l10n";
import { isObject } from "../relay/outputItems";
import type { Clock } from "./clock";
import { systemClock } from "./clock";
import type { Conversation } from "./conversation";
import { parseConversation, serializeConversation } from "./conversationSchema";
import type { ConversationSummary } from "./conversationSummary";
import { summarize } from "./conversationSummary";
import type { DocumentStorage } from "./documentStorage";

// Conversations of one workspace: one file per conversation under `conversations/`, plus `index.json` so the
// list opens without reading every file. The conversation files are the truth; the index is a cache that
// is checked against the folder and rebuilt from the files when it is missing or damaged. A damaged file is
// moved to `damaged/` with a message, and never stops the other conversations from loading.

const INDEX_NAME = "index.json";
const INDEX_SCHEMA_VERSION = 1;
const CONVERSATIONS_FOLDER = "conversations";
const DAMAGED_FOLDER = "damaged";
const CONVERSATION_FILE = /^([A-Za-z0-9][A-Za-z0-9_-]*)\.json$/;

export interface HistoryListing {
  /** Newest first. */
  conversations: ConversationSummary[];
  /** Sentences for the user about files that were damaged and set aside; empty when all is well. */
  problems: string[];
}

export type OpenedConversation =
  | { ok: true; conversation: Conversation; notice: string | null }
  | { ok: false; problem: string };

export class HistoryStore {
  private index: Map<string, ConversationSummary> | null = null;
  /**
   * Conversations deleted through this store. A turn may still be streaming when its conversation is
   * deleted; its saves afterwards must not bring the conversation back, so they are dropped.
   */
  private readonly deleted = new Set<string>();
  private pendingProblems: string[] = [];
  /** Writes run one after another so the index never loses an update to a concurrent save. */
  private writeQueue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly storage: DocumentStorage,
    private readonly clock: Clock = systemClock,
  ) {}

  async list(): Promise<HistoryListing> {
    await this.serialized(() => this.loadIndex());
    const problems = this.pendingProblems;
    this.pendingProblems = [];
    const conversations = [...(this.index ?? new Map<string, ConversationSummary>()).values()].sort((a, b) => b.updatedAt - a.updatedAt || a.id.localeCompare(b.id));
    return { conversations, problems };
  }

  async open(id: string): Promise<OpenedConversation> {
    return this.serialized(async () => {
      const name = conversationName(id);
      let text: string | null;
      try {
        text = await this.storage.read(name);
      } catch (error) {
        return { ok: false, problem: l10n.t("The conversation could not be read ({0}).", (error as Error).message) };
      }
      if (text === null) {
        await this.forget(id);
        return { ok: false, problem: l10n.t("The conversation no longer exists; it may have been deleted in another window.") };
      }
      const parsed = parseConversation(text);
      if (parsed.ok) {
        const notice = parsed.migratedFrom === null ? null : l10n.t("This conversation was upgraded from an older format (version {0}); it is saved in the new format on the next change.", parsed.migratedFrom);
        return { ok: true, conversation: parsed.conversation, notice };
      }
      if (parsed.reason === "newer") return { ok: false, problem: l10n.t("The conversation cannot be opened: {0}. It was left untouched.", parsed.problem) };
      await this.loadIndex();
      const title = this.index?.get(id)?.title ?? id;
      const movedTo = await this.setAside(name);
      await this.forget(id);
      return { ok: false, problem: damagedMessage(l10n.t('The conversation "{0}"', title), parsed.problem, movedTo) };
    });
  }

  /** Saves the whole conversation (atomically), then its line in the index. A deleted conversation stays deleted. */
  async save(conversation: Conversation): Promise<void> {
    await this.serialized(async () => {
      if (this.deleted.has(conversation.id)) return;
      await this.loadIndex();
      await this.storage.writeAtomically(conversationName(conversation.id), serializeConversation(conversation));
      this.index?.set(conversation.id, summarize(conversation));
      await this.writeIndex();
    });
  }

  async rename(id: string, title: string): Promise<OpenedConversation> {
    const opened = await this.open(id);
    if (!opened.ok) return opened;
    opened.conversation.title = title.trim();
    opened.conversation.updatedAt = this.clock.now();
    await this.save(opened.conversation);
    return opened;
  }

  async delete(id: string): Promise<void> {
    this.deleted.add(id);
    await this.serialized(async () => {
      await this.storage.remove(conversationName(id));
      await this.forget(id);
    });
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const result = this.writeQueue.then(work);
    this.writeQueue = result.catch(() => undefined);
    return result;
  }

  private async forget(id: string): Promise<void> {
    await this.loadIndex();
    if (this.index?.delete(id)) await this.writeIndex();
  }

  /** Loads the index once, then reconciles it with the files on disk (cheap: one folder listing). */
  private async loadIndex(): Promise<void> {
    if (this.index) return;
    const fromIndex = await this.readIndexFile();
    const index = new Map<string, ConversationSummary>();
    let changed = fromIndex === null;
    const ids = (await this.storage.list(CONVERSATIONS_FOLDER)).flatMap((name) => CONVERSATION_FILE.exec(name)?.[1] ?? []);
    for (const id of ids) {
      const known = fromIndex?.get(id);
      if (known) {
        index.set(id, known);
        continue;
      }
      // Saved but not yet in the index (the process stopped between the two writes), or the index is being rebuilt.
      changed = true;
      const summary = await this.summaryFromFile(id);
      if (summary) index.set(id, summary);
    }
    if (fromIndex && fromIndex.size !== index.size) changed = true;
    this.index = index;
    if (changed) await this.writeIndex();
  }

  private async readIndexFile(): Promise<Map<string, ConversationSummary> | null> {
    let text: string | null;
    try {
      text = await this.storage.read(INDEX_NAME);
    } catch (error) {
      this.pendingProblems.push(l10n.t("The conversation list could not be read ({0}); it was rebuilt from the conversation files.", (error as Error).message));
      return null;
    }
    if (text === null) return null;
    const entries = parseIndex(text);
    if (entries) return new Map(entries.map((entry) => [entry.id, entry]));
    const movedTo = await this.setAside(INDEX_NAME);
    this.pendingProblems.push(`${damagedMessage(l10n.t("The conversation list"), l10n.t("it is not in the expected format"), movedTo)} ${l10n.t("The list was rebuilt from the conversation files.")}`);
    return null;
  }

  private async summaryFromFile(id: string): Promise<ConversationSummary | null> {
    const name = conversationName(id);
    let text: string | null;
    try {
      text = await this.storage.read(name);
    } catch (error) {
      this.pendingProblems.push(l10n.t("The conversation file {0} could not be read ({1}); it is left out of the list.", name, (error as Error).message));
      return null;
    }
    if (text === null) return null;
    const parsed = parseConversation(text);
    if (parsed.ok) return summarize(parsed.conversation);
    if (parsed.reason === "newer") {
      this.pendingProblems.push(l10n.t("The conversation file {0} is left out of the list: {1}.", name, parsed.problem));
      return null;
    }
    const movedTo = await this.setAside(name);
    this.pendingProblems.push(damagedMessage(l10n.t("The conversation file {0}", name), parsed.problem, movedTo));
    return null;
  }

  private async writeIndex(): Promise<void> {
    const conversations = [...(this.index ?? new Map<string, ConversationSummary>()).values()];
    await this.storage.writeAtomically(INDEX_NAME, JSON.stringify({ schemaVersion: INDEX_SCHEMA_VERSION, conversations }));
  }

  /** Moves a damaged file out of the way, keeping it for inspection; returns where it went. */
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

function conversationName(id: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(id)) throw new Error(`"${id}" is not a conversation id.`);
  return `${CONVERSATIONS_FOLDER}/${id}.json`;
}

function damagedMessage(what: string, problem: string, movedTo: string): string {
  // `problem` is the parser's own (English) account of what is wrong with the file.
  return l10n.t("{0} could not be read because {1}. It was moved to {2} in the Relay Chat storage folder; the other conversations are unaffected.", what, problem, movedTo);
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
