import type { Conversation } from "../../chat/conversation";
import type { HistoryChange, HistoryStore } from "../../chat/historyStore";
import type { ConversationCommands } from "./conversationCommands";
import type { ConversationOnScreenMemory, PanelLog } from "../panelServices";
import type { SessionRunner } from "../turns/sessionRunner";

// Which conversation is on screen: opening one from the history, following changes another window made to
// the history folder, renaming and deleting, and the read-only state of a conversation whose turn is being
// answered in another window. Split from the controller because it changes with the shared-history rules,
// not with sending.

/** How often a conversation shown read-only (answered in another window) is looked at again. */
const RUNNING_ELSEWHERE_RECHECK_MS = 5_000;

export interface ConversationSwitcherOptions {
  store: HistoryStore;
  runner: SessionRunner;
  commands: ConversationCommands;
  /** Something on screen changed: the panel posts what did. */
  changed: () => void;
  setNotice: (notice: string | null) => void;
  /** Stops the running turn (opening or deleting the conversation on screen while it runs). */
  stop: () => void;
  /** Reads the history list again (its problems become a notice). */
  reloadConversations: () => Promise<void>;
  /** Posts these turns, sent brief when the conversation opened, whole. */
  sendWhole: (turnIds: readonly string[]) => void;
  /** The conversation on screen before the window reloaded; absent: a reload starts a new chat. */
  remembered?: ConversationOnScreenMemory;
  log: PanelLog;
}

export class ConversationSwitcher {
  /**
   * A turn of the conversation on screen is being answered in another window: it is read-only here (no
   * send, retry or continue) until that answer ends, so nothing written here competes with that stream.
   */
  private runningElsewhereNow = false;
  private runningElsewhereCheck: NodeJS.Timeout | null = null;
  /** The remembered conversation is looked for once, before the page's first snapshot. */
  private rememberedLookedFor = false;

  constructor(private readonly options: ConversationSwitcherOptions) {}

  get runningElsewhere(): boolean {
    return this.runningElsewhereNow;
  }

  async open(conversationId: string): Promise<void> {
    const { runner, store } = this.options;
    if (runner.conversation?.id === conversationId) return;
    if (runner.busy) this.options.stop();
    const opened = await store.open(conversationId);
    if (!opened.ok) {
      this.options.setNotice(opened.problem);
      await this.options.reloadConversations();
      return this.options.changed();
    }
    this.show(opened.conversation, opened.runningElsewhere);
    this.options.setNotice(opened.notice);
    this.options.changed();
  }

  /**
   * After a window reload, the conversation that was on screen comes back (once: a page loaded again later
   * shows what is on screen then). Nobody asked for it now, so one that cannot be opened (deleted meanwhile,
   * never saved) leaves the new chat in silence, in the log only. Undefined when there is nothing to look
   * for, so a page's first snapshot then goes out at once.
   */
  restoreRemembered(): Promise<void> | undefined {
    const { runner, remembered } = this.options;
    const conversationId = this.rememberedLookedFor ? undefined : remembered?.get();
    this.rememberedLookedFor = true;
    if (conversationId === undefined || runner.conversation !== null || runner.busy) return undefined;
    return this.restore(conversationId);
  }

  private async restore(conversationId: string): Promise<void> {
    const { runner, store, log } = this.options;
    const opened = await store.open(conversationId);
    if (!opened.ok) return log.info(`The conversation on screen before the reload was not opened again: ${opened.problem}`);
    if (runner.conversation !== null || runner.busy) return;
    this.show(opened.conversation, opened.runningElsewhere);
    this.options.setNotice(opened.notice);
  }

  /** The page asks for turns it has brief; a request naming another conversation (the page switched since) is ignored. */
  loadTurns(conversationId: string, turnIds: readonly string[]): void {
    if (conversationId === this.options.runner.conversation?.id) this.options.sendWhole(turnIds);
  }

  /**
   * Another window changed the history folder: the list is read again, and the conversation on screen too
   * when it changed and nothing runs here (its new turns appear; a stream that ended there unlocks it).
   */
  async onHistoryChanged(change: HistoryChange): Promise<void> {
    await this.options.reloadConversations();
    const current = this.options.runner.conversation;
    if (current && change.conversationIds.has(current.id)) await this.reopen(current.id);
    this.options.changed();
  }

  async rename(conversationId: string): Promise<void> {
    const title = await this.options.commands.rename(conversationId);
    const current = this.options.runner.conversation;
    if (title !== null && current?.id === conversationId) current.title = title;
    this.options.changed();
  }

  async delete(conversationId: string): Promise<void> {
    if (!(await this.options.commands.delete(conversationId))) return;
    if (this.options.runner.conversation?.id === conversationId) {
      if (this.options.runner.busy) this.options.stop();
      this.show(null);
    }
    this.options.changed();
  }

  /** Puts a conversation (or a new chat, for null) on screen. */
  show(conversation: Conversation | null, runningElsewhere = false): void {
    this.options.runner.replace(conversation);
    this.runningElsewhereNow = runningElsewhere;
    if (this.runningElsewhereCheck) clearTimeout(this.runningElsewhereCheck);
    this.runningElsewhereCheck = null;
    const conversationId = conversation?.id;
    if (!runningElsewhere || conversationId === undefined) return;
    // A window that stops answering without a word (closed, crashed) changes no file: look again now and then.
    this.runningElsewhereCheck = setTimeout(() => {
      this.runningElsewhereCheck = null;
      void this.reopen(conversationId).then(() => this.options.changed());
    }, RUNNING_ELSEWHERE_RECHECK_MS);
    this.runningElsewhereCheck.unref?.();
  }

  private async reopen(conversationId: string): Promise<void> {
    const { runner, store } = this.options;
    if (runner.busy || runner.conversation?.id !== conversationId) return;
    const opened = await store.open(conversationId);
    if (runner.busy || runner.conversation?.id !== conversationId) return;
    if (!opened.ok) {
      this.show(null);
      this.options.setNotice(opened.problem);
      return;
    }
    this.show(opened.conversation, opened.runningElsewhere);
    this.options.setNotice(opened.notice);
  }
}
