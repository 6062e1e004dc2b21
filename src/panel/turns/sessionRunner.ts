import * as l10n from "@vscode/l10n";
import { ChatSession } from "../../chat/chatSession";
import type { ChatSessionListener } from "../../chat/chatSession";
import type { ChatSettings } from "../../chat/chatSettings";
import type { Conversation, RequestRecord, ToolCallRecord } from "../../chat/conversation";
import { findTurn, siblingsOf } from "../../chat/conversation";
import type { HistoryStore } from "../../chat/historyStore";
import type { RequestLedger } from "../../chat/requestLedger";
import type { ChatTools } from "../../chat/toolRound";
import type { SendEstimate } from "../../chat/spendGuard";
import type { ApprovalAnswer } from "../../tools/approvalPolicy";
import type { ApprovalRequest } from "../../tools/approvalGate";
import type { PanelLog, RelayAccess } from "../panelServices";
import type { PanelSync } from "../panelSync";
import type { PromptBroker } from "./promptBroker";
import { ContentWaitClock } from "./contentWait";
import { StreamForwarder } from "./streamForwarder";
import { modeOf, tasksOf, turnModeOf } from "../../chat/planState";
import type { ChatMode } from "../../tools/planMode";
import type { PlanInputs } from "../context/instructionChoices";

// The ChatSession on screen and what it reports while it runs: streamed text goes to the forwarder,
// ended requests and turns become patches, tool approvals and spend confirmations go through the prompt
// broker. A session that was replaced (new chat, another conversation) may still finish its turn in the
// background; its events are logged and kept off the screen.

export interface SessionRunnerOptions {
  relay: RelayAccess;
  store: HistoryStore;
  ledger: RequestLedger;
  log: PanelLog;
  tools: (askUser: (request: ApprovalRequest) => Promise<ApprovalAnswer>) => ChatTools;
  prompts: PromptBroker;
  sync: PanelSync;
  settings: () => ChatSettings;
  redact: (text: string) => string;
  /** Saving history or the ledger failed; the turn itself went on. */
  onStorageProblem: (message: string) => void;
  /** A request of the session on screen ended (for the conversation's totals). */
  onRequestEnd: (record: RequestRecord) => void;
  /** A turn of the session on screen ended with a completed answer (the walkthrough's last step). */
  onTurnCompleted?: () => void;
  /** Another conversation (null: a new chat) is on screen now. */
  onShown?: (conversationId: string | null) => void;
}

export class SessionRunner {
  private current: ChatSession | null = null;
  /** The tools the current session offers, so "Copy as curl" lists exactly what was offered. */
  private currentTools: ChatTools | null = null;
  /** Tool calls answered during the running round, before the session adds them to the turn. */
  private readonly answered = new Map<string, ToolCallRecord[]>();
  /** The estimated follow-up request of the tool calls being proposed, shown on their approval cards. */
  private followUpEstimate: SendEstimate | null = null;
  /** Reasoning summary text of each turn's request under way (few and short: the turn is posted again per batch). */
  private readonly reasoning = new Map<string, string>();
  private readonly forwarder: StreamForwarder;
  /** How long the running request has waited for content, for the turn's "Working…" line. */
  private readonly contentWait: ContentWaitClock;
  /** Plan or Act for a new chat, before its first message makes it a conversation: the switch as last set. */
  private draftMode: ChatMode = "act";

  constructor(private readonly options: SessionRunnerOptions) {
    this.forwarder = new StreamForwarder(options.sync);
    this.contentWait = new ContentWaitClock((turnId, seconds) => options.sync.contentWait(turnId, seconds));
  }

  get session(): ChatSession | null {
    return this.current;
  }

  get conversation(): Conversation | null {
    return this.current?.conversation ?? null;
  }

  get tools(): ChatTools | null {
    return this.currentTools;
  }

  /**
   * Builds the tools before a first session needs them, so the state of a new window already names what the first
   * request offers (the built-in tools are built on first use, not at activation). True when they were built now.
   */
  prepareTools(): boolean {
    if (this.currentTools !== null) return false;
    this.currentTools = this.toolsForSession();
    return true;
  }

  /**
   * The mode and task list the instructions are assembled with: the running turn's mode while it runs (its
   * follow-ups stay in the mode it started in), else the conversation's, else the new chat's.
   */
  planInputs(): PlanInputs {
    const conversation = this.conversation;
    if (conversation === null) return { mode: this.draftMode, tasks: [] };
    const active = conversation.activeTurnId === null ? undefined : findTurn(conversation, conversation.activeTurnId);
    const running = this.busy && active !== undefined && active.outcome.kind === "in_progress";
    return { mode: running ? turnModeOf(active) : modeOf(conversation), tasks: tasksOf(conversation) };
  }

  /** Plan or Act for the next message of the conversation on screen (saved with it), and for new chats. */
  async setMode(mode: ChatMode): Promise<void> {
    this.draftMode = mode;
    await this.current?.changes.setMode(mode);
    this.applySettings();
  }

  get busy(): boolean {
    return this.current?.busy === true;
  }

  get streamingTurnId(): string | null {
    return this.forwarder.streamingTurnId;
  }

  /** The reasoning summary text of the request under way, null when none arrived. */
  liveReasoning(turnId: string): string | null {
    return this.reasoning.get(turnId) ?? null;
  }

  liveText(turnId: string): string | null {
    return this.forwarder.liveText(turnId);
  }

  /** Tool calls of `turnId` that were answered in the round still running. */
  answeredCalls(turnId: string): readonly ToolCallRecord[] {
    return this.answered.get(turnId) ?? [];
  }

  /** Shows `conversation` (a new one when undefined is given); null shows an empty new chat. */
  replace(conversation: Conversation | undefined | null): void {
    this.current = conversation === null ? null : this.createSession(conversation);
    this.forwarder.end();
    this.contentWait.stop();
    this.answered.clear();
    this.options.onShown?.(this.conversation?.id ?? null);
  }

  /** The session to send with: the one on screen, or a new conversation. */
  sessionForSending(): ChatSession {
    if (this.current === null) this.replace(undefined);
    const session = this.current as ChatSession;
    session.settings = this.options.settings();
    return session;
  }

  /** Aborts the running request or tool call; open questions are answered "no" by the caller. */
  cancel(): void {
    this.current?.cancel();
  }

  /** Shows the previous or next version of a turn (edits and regenerations are siblings). */
  async showBranch(turnId: string, direction: -1 | 1): Promise<void> {
    const session = this.current;
    if (!session || session.busy || !findTurn(session.conversation, turnId)) return;
    const siblings = siblingsOf(session.conversation, turnId);
    const target = siblings[siblings.findIndex((candidate) => candidate.id === turnId) + direction];
    if (target) await session.changes.showBranch(target.id);
  }

  applySettings(): void {
    if (this.current) this.current.settings = this.options.settings();
  }

  private createSession(conversation: Conversation | undefined): ChatSession {
    const { relay, prompts } = this.options;
    this.currentTools = this.toolsForSession();
    const session: ChatSession = new ChatSession({
      // A new chat starts in the mode the switch shows.
      // The client is looked up per request so a new key or base URL applies to the next send.
      client: {
        send: (request, sendOptions) => {
          const client = relay.current();
          if (!client) throw new Error(relay.missing() ?? l10n.t("No relay is configured."));
          return client.send(request, sendOptions);
        },
      },
      store: this.options.store,
      ledger: this.options.ledger,
      settings: this.options.settings(),
      tools: this.currentTools,
      confirmExpensiveSend: (estimate) => prompts.confirmSpend(estimate),
      conversation,
      redact: this.options.redact,
      listener: this.listenerFor(() => session === this.current),
    });
    if (conversation === undefined && this.draftMode === "plan") session.conversation.mode = "plan";
    else if (conversation !== undefined) this.draftMode = modeOf(conversation);
    return session;
  }

  private toolsForSession(): ChatTools {
    return this.options.tools((request) => this.options.prompts.askApproval(request, this.followUpEstimate));
  }

  private listenerFor(isCurrent: () => boolean): ChatSessionListener {
    const { sync, log } = this.options;
    return {
      onRequestStart: (turnId) => {
        if (isCurrent()) this.contentWait.requestStarted(turnId);
      },
      // Once per received batch: cheap, and the first sign that a turn's request is under way.
      onSnapshot: (turnId, snapshot) => {
        if (isCurrent()) this.contentWait.received(turnId, snapshot.output);
        if (!isCurrent() || this.forwarder.streamingTurnId === turnId) return;
        this.forwarder.start(turnId);
        sync.turnChanged(turnId);
      },
      onReasoningDelta: (turnId, text) => {
        if (!isCurrent()) return;
        this.reasoning.set(turnId, (this.reasoning.get(turnId) ?? "") + text);
        sync.turnChanged(turnId);
      },
      onAnswerDelta: (turnId, text) => {
        if (isCurrent()) this.forwarder.forward(turnId, text);
      },
      onToolCall: (turnId, event) => {
        if (event.phase === "proposed") this.followUpEstimate = event.followUpEstimate ?? null;
        // A failed checkpoint is recorded on the turn just before its tools are proposed: show it now.
        if (event.phase === "proposed" && isCurrent() && this.conversation && findTurn(this.conversation, turnId)?.checkpointProblem) sync.turnChanged(turnId);
        if (!isCurrent() || event.phase !== "finished") return;
        this.answered.set(turnId, [...this.answeredCalls(turnId), event.record]);
        sync.turnChanged(turnId);
      },
      onRequestEnd: (turnId, record) => {
        if (isCurrent()) this.contentWait.stop();
        // The request's output now holds its reasoning summaries; the next request starts its own.
        this.reasoning.delete(turnId);
        const level = record.outcome.kind === "completed" ? "info" : "error";
        log[level](
          `request ${record.requestId ?? "(no request id)"} · model ${record.model} · ${record.purpose} · outcome ${record.outcome.kind} · http ${record.httpStatus ?? "-"} · first byte ${record.firstByteMs ?? "-"} ms · total ${record.totalMs ?? "-"} ms${record.explanation ? ` · ${record.explanation}` : ""}`,
        );
        const turn = isCurrent() && this.conversation ? findTurn(this.conversation, turnId) : undefined;
        if (!turn) return;
        this.options.onRequestEnd(record);
        // With the turn's end when it follows at once (no tool calls): one patch for both.
        sync.receiptAdded(turnId, turn.requests.length - 1, "withinFrame");
      },
      onTurnEnd: (turn) => {
        log.info(`turn ended: ${turn.outcome.kind}`);
        if (!isCurrent()) return;
        this.forwarder.end();
        this.answered.delete(turn.id);
        // With the busy flag and the list that follow (TurnStarter): one patch ends the turn.
        sync.turnChanged(turn.id, "withinFrame");
        if (turn.outcome.kind === "completed") this.options.onTurnCompleted?.();
      },
      onTasksChanged: () => {
        if (!isCurrent()) return;
        // The follow-up request of the turn carries the list as it is now.
        this.applySettings();
        sync.changed();
      },
      onStorageProblem: (message) => {
        log.error(message);
        if (isCurrent()) this.options.onStorageProblem(message);
      },
    };
  }
}
