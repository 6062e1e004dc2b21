import * as l10n from "@vscode/l10n";
import { functionCallsOf, outputTextOf } from "../relay/accumulate";
import type { RelayClient } from "../relay/client";
import type { ModelPrice } from "../relay/modelPrice";
import { redactSecrets } from "../relay/redact";
import { userMessage } from "../relay/requestBuilder";
import type { InputItem, RequestResult } from "../relay/types";
import type { ChatSessionListener, ChatSessionOptions, SendOptions, TurnResult } from "./chatSessionOptions";
import type { ChatSettings } from "./chatSettings";
import type { Clock, IdFactory } from "./clock";
import { randomIds, systemClock } from "./clock";
import { compactionBoundary, DEFAULT_COMPACTION_SETTINGS, NothingToSummarize, summaryRequestItems, summaryRequestTurn, summaryText } from "./compaction";
import type { Conversation, RequestPurpose, ToolCallRecord, Turn, TurnSummary } from "./conversation";
import { createConversation, findTurn, requireTurn } from "./conversation";
import { ConversationChanges } from "./conversationChanges";
import type { HistoryStore } from "./historyStore";
import { userMessageWith } from "./imageStore";
import type { IncompleteTurnAction } from "./incompleteTurn";
import { incompleteActionsFor, largerBudgetFor, lastBudgetOf, requireIncompleteTurn } from "./incompleteTurn";
import { continuationItems } from "./historyItems";
import type { RequestLedger } from "./requestLedger";
import type { SendEstimate } from "./spendGuard";
import { estimateNextRequest, estimateSend, summaryRequestFits, withInstructionTokens, withSpendWarning } from "./spendGuard";
import type { ChatTools } from "./toolRound";
import { answerFunctionCalls, noTools } from "./toolRound";
import { offeredTools } from "./modelRequestOptions";
import { checkpointAtTurnEnd, checkpointBeforeRound } from "./turnCheckpoint";
import type { TurnRequestContext } from "./turnRequest";
import { sendTurnRequest } from "./turnRequest";
import { modeOf, tasksSetBy, toolsInMode, turnModeOf } from "./planState";

// The turn loop. One ChatSession drives one conversation: it builds each request from the branch's
// history, streams the answer, answers function calls through the tools module, and stops. It never retries
// on its own: every request may be billed, so each one follows a user action (send, continue, retry,
// regenerate) or is the follow-up the spec requires after a function call, capped per turn. Each of them
// is estimated first and, above the threshold, confirmed. How one request is sent and recorded so that a
// crash loses at most a few seconds of text is in turnRequest.ts; what the person changes between turns (mode,
// tasks, branch, rules files, notes, restores) in conversationChanges.ts; what a session is given and reports in
// chatSessionOptions.ts.

/** With relayChat.compaction.withoutAsking: at most this many summaries (each billed) before one message. */
const MAX_SUMMARIES_BEFORE_A_SEND = 3;

export type { ChatSessionListener, ChatSessionOptions, SendOptions, TurnResult } from "./chatSessionOptions";

export class ChatSession {
  private readonly client: Pick<RelayClient, "send">;
  private readonly store: HistoryStore;
  private readonly ledger: RequestLedger;
  private readonly tools: ChatTools | undefined;
  private readonly confirmExpensiveSend: ChatSessionOptions["confirmExpensiveSend"];
  private readonly listener: ChatSessionListener;
  private readonly clock: Clock;
  private readonly ids: IdFactory;
  private readonly redact: (text: string) => string;
  private readonly current: Conversation;
  private inFlight: AbortController | null = null;
  private busyFlag = false;
  settings: ChatSettings;
  /** What the person changes between turns (mode, tasks, branch, rules files, notes, restores): conversationChanges.ts. */
  readonly changes: ConversationChanges;

  constructor(options: ChatSessionOptions) {
    this.client = options.client;
    this.store = options.store;
    this.ledger = options.ledger;
    this.settings = options.settings;
    this.tools = options.tools;
    this.confirmExpensiveSend = options.confirmExpensiveSend;
    this.listener = options.listener ?? {};
    this.clock = options.clock ?? systemClock;
    this.ids = options.ids ?? randomIds;
    this.redact = options.redact ?? ((text) => redactSecrets(text, []));
    this.current = options.conversation ?? createConversation(this.ids("conv"), options.settings.model, this.clock.now());
    this.changes = new ConversationChanges({
      conversation: this.current,
      tools: this.tools,
      busy: () => this.busy,
      assertIdle: () => this.assertIdle(),
      save: (turn) => this.save(turn),
      reportCheckpointProblem: (problem) => this.reportCheckpointProblem(problem),
    });
  }

  get conversation(): Conversation {
    return this.current;
  }

  /** True while a request or a tool call of this session is running (or waiting for approval). */
  get busy(): boolean {
    return this.busyFlag;
  }

  /** Sends a new message after the turn on screen. */
  send(text: string, options: SendOptions = {}): Promise<TurnResult> {
    return this.startTurn(this.current.activeTurnId, text, options);
  }

  /** Sends an edited version of a turn's message, with its images, as a new branch; the original turn stays reachable. */
  editAndResend(turnId: string, newText: string, options: SendOptions = {}): Promise<TurnResult> {
    const turn = requireTurn(this.current, turnId);
    return this.startTurn(turn.parentId, newText, { reviewNote: turn.reviewNote, ...options }, turn.images ?? []);
  }

  /** Asks again for the same message as a new branch; the earlier answer stays reachable. */
  regenerate(turnId: string, options: SendOptions = {}): Promise<TurnResult> {
    const turn = requireTurn(this.current, turnId);
    return this.startTurn(turn.parentId, turn.userText, { reviewNote: turn.reviewNote, ...options }, turn.images ?? []);
  }

  /** Sends the turn's message again without its images, as a new branch (the model refused them); user-initiated only. */
  resendWithoutImages(turnId: string, options: SendOptions = {}): Promise<TurnResult> {
    const turn = requireTurn(this.current, turnId);
    return this.startTurn(turn.parentId, turn.userText, { reviewNote: turn.reviewNote, ...options, images: [] });
  }

  /** The actions an `incomplete` turn offers, with their billing note; empty for any other turn. */
  incompleteActions(turnId: string): IncompleteTurnAction[] {
    return incompleteActionsFor(this.current, turnId);
  }

  /**
   * Continue an `incomplete` answer: one new request carrying the partial answer and asking the model to go
   * on. Possibly billed; only ever called on the user's request.
   */
  continueTurn(turnId: string, options: SendOptions = {}): Promise<TurnResult> {
    return this.exclusive(async () => {
      const turn = requireIncompleteTurn(this.current, turnId);
      const last = turn.requests[turn.requests.length - 1];
      const input = continuationItems(outputTextOf(last?.output ?? []));
      const refused = await this.guardSpend(estimateNextRequest(this.current, turn, input, this.settings.expensiveSendThresholdTokens, "continue"), options);
      if (refused) return refused;
      return this.runTurn(turn, "continue", input, lastBudgetOf(turn, this.settings.maxOutputTokens));
    });
  }

  /** Sends the incomplete request again with a larger `max_output_tokens`. Possibly billed; user-initiated only. */
  retryWithLargerBudget(turnId: string, maxOutputTokens?: number, options: SendOptions = {}): Promise<TurnResult> {
    return this.exclusive(async () => {
      const turn = requireIncompleteTurn(this.current, turnId);
      const refused = await this.guardSpend(estimateNextRequest(this.current, turn, [], this.settings.expensiveSendThresholdTokens, "retry_larger"), options);
      if (refused) return refused;
      return this.runTurn(turn, "retry_larger", [], maxOutputTokens ?? largerBudgetFor(turn));
    });
  }

  /**
   * The estimated input of the follow-up request a turn would send after its tool calls are answered (the
   * tool results not yet counted): what the approval card can show. Null when the turn has no request.
   */
  followUpEstimate(turnId: string): SendEstimate | null {
    const turn = findTurn(this.current, turnId);
    if (!turn || turn.requests.length === 0) return null;
    return estimateNextRequest(this.current, turn, [], this.settings.expensiveSendThresholdTokens, "tool_follow_up");
  }

  /**
   * Asks the model for a summary of the branch on screen up to the turns kept verbatim (compaction.ts):
   * one request, estimated and confirmed like any other, stored on the last turn it covers. Only ever
   * called on the person's request, or before a send they allowed to summarize without asking.
   */
  summarizeEarlierTurns(options: SendOptions = {}): Promise<TurnResult> {
    return this.exclusive(() => this.summarize(this.current.activeTurnId, options));
  }

  /** Aborts the request or tool call in flight; the turn ends as `cancelled`. */
  cancel(): void {
    this.inFlight?.abort();
  }

  private startTurn(parentId: string | null, text: string, options: SendOptions, storedImages: readonly string[] = []): Promise<TurnResult> {
    return this.exclusive(async () => {
      if (parentId !== null) requireTurn(this.current, parentId);
      const images = [...storedImages, ...(await Promise.all((options.images ?? []).map((image) => this.store.images.put(image))))];
      const message = userMessageWith(text, images);
      // A resent image whose file is gone stops here, before a turn is started (the error says which).
      await this.store.images.resolve([message]);
      // The review note (below) is sent too, so it is estimated with the text, images and all.
      const sentText = options.reviewNote ? `${options.reviewNote}\n${text}` : text;
      // A summary covers only what fits in the window, so a very long branch may take more than one.
      for (let summaries = 0; summaries < MAX_SUMMARIES_BEFORE_A_SEND && parentId !== null && this.wouldPassCompactionThreshold(parentId, sentText, images.length); summaries += 1) {
        const summarized = await this.summarize(parentId, options);
        if (summarized.status !== "finished") return summarized;
        if (summaryText(summarized.turn.summary) === null) break;
      }
      const refused = await this.guardSpend(withInstructionTokens(estimateSend(this.current, parentId, sentText, this.settings.expensiveSendThresholdTokens, images.length), this.settings.instructions?.tokens ?? 0), options);
      if (refused) return refused;
      const turn: Turn = { id: this.ids("turn"), parentId, userText: text, createdAt: this.clock.now(), requests: [], toolCalls: [], outcome: { kind: "in_progress" }, notice: null };
      if (images.length > 0) turn.images = images;
      if (modeOf(this.current) === "plan") turn.mode = "plan";
      // The note goes first, as its own message, so the person's words stay as they typed them.
      const note = options.reviewNote ? [userMessage(options.reviewNote)] : [];
      if (options.reviewNote) turn.reviewNote = options.reviewNote;
      this.current.turns.push(turn);
      this.current.activeTurnId = turn.id;
      return this.runTurn(turn, "send", [...note, message], this.settings.maxOutputTokens);
    });
  }

  /** With the person's standing consent only: the message would fill more of the window than the threshold allows. */
  private wouldPassCompactionThreshold(parentId: string, text: string, images: number): boolean {
    const compaction = this.settings.compaction ?? DEFAULT_COMPACTION_SETTINGS;
    const window = this.settings.contextWindowTokens ?? null;
    if (!compaction.withoutAsking || window === null || window <= 0) return false;
    if (compactionBoundary(this.current, parentId, compaction.keepTurns) === null) return false;
    return estimateSend(this.current, parentId, text, 0, images).inputTokens > (window * compaction.thresholdPercent) / 100;
  }

  private async summarize(lastTurnId: string | null, options: SendOptions): Promise<TurnResult> {
    const compaction = this.settings.compaction ?? DEFAULT_COMPACTION_SETTINGS;
    const fits = summaryRequestFits(this.current, this.settings.contextWindowTokens ?? null, this.settings.maxOutputTokens);
    const boundary = compactionBoundary(this.current, lastTurnId, compaction.keepTurns, fits);
    if (boundary === null) throw new NothingToSummarize(compaction.keepTurns);
    const through = boundary.through;
    // The summarize request is sent after the history up to `through` (with any earlier summary), as if it were the next turn there.
    const asking = summaryRequestTurn(through, this.clock.now());
    const prompt = summaryRequestItems();
    const refused = await this.guardSpend(estimateNextRequest(this.current, asking, prompt, this.settings.expensiveSendThresholdTokens, "summarize"), options);
    if (refused) return refused;
    const summary: TurnSummary = { requests: asking.requests, replacedTurns: boundary.replacedTurns, estimatedTokensBefore: estimateSend(this.current, lastTurnId, "", 0).inputTokens, estimatedTokensAfter: null };
    through.summary = summary;
    const abort = new AbortController();
    this.inFlight = abort;
    try {
      // The summary's text is not the turn's answer: nothing of it streams into the turn on screen.
      const listener: ChatSessionListener = { onRequestEnd: (turnId, record) => this.listener.onRequestEnd?.(turnId, record), onStorageProblem: (message) => this.listener.onStorageProblem?.(message) };
      await sendTurnRequest({ ...this.requestContext(through), tools: undefined, listener }, asking, "summarize", prompt, this.settings.maxOutputTokens, abort.signal);
    } finally {
      if (this.inFlight === abort) this.inFlight = null;
      // Stopped before anything was sent (a resent image is gone): no summary was asked for.
      if (summary.requests.length === 0) delete through.summary;
    }
    // A summary that failed keeps its receipt and replaces nothing.
    if (summaryText(summary) !== null) summary.estimatedTokensAfter = estimateSend(this.current, lastTurnId, "", 0).inputTokens;
    await this.save(through);
    this.listener.onTurnEnd?.(through);
    return { status: "finished", turn: through };
  }

  /** Null when the request may go; otherwise the result that stops it (the user has to confirm, or declined). */
  private async guardSpend(tokenEstimate: SendEstimate, options: SendOptions): Promise<TurnResult | null> {
    const estimate = withSpendWarning(tokenEstimate, this.settings.priceOf?.(this.settings.model) ?? null, this.settings.spendWarningAmount ?? null);
    if (!estimate.needsConfirmation || options.confirmed) return null;
    if (!this.confirmExpensiveSend) return { status: "needs_confirmation", estimate };
    return (await this.confirmExpensiveSend(estimate)) ? null : { status: "declined", estimate };
  }

  /** Runs requests for one turn until it completes, stops, or hits the tool-round cap. */
  private async runTurn(turn: Turn, firstPurpose: RequestPurpose, firstInput: InputItem[], maxOutputTokens: number | null): Promise<TurnResult> {
    const abort = new AbortController();
    this.inFlight = abort;
    turn.outcome = { kind: "in_progress" };
    turn.notice = null;
    try {
      let purpose = firstPurpose;
      let input = firstInput;
      for (let toolRounds = 0; ; toolRounds += 1) {
        const result = await this.sendRequest(turn, purpose, input, maxOutputTokens, abort.signal);
        if (result.outcome.kind !== "completed") {
          turn.outcome = result.outcome;
          turn.notice = result.explanation;
          break;
        }
        const proposals = functionCallsOf(result.snapshot.output);
        if (proposals.length === 0) {
          turn.outcome = { kind: "completed" };
          break;
        }
        if (toolRounds >= this.settings.toolRoundCap) {
          turn.outcome = { kind: "tool_round_limit", rounds: toolRounds };
          turn.notice =
            toolRounds === 1
              ? l10n.t("The model asked for tools again after 1 tool round, the limit for one message (setting: tool round cap). Nothing more was run or sent; this answer is not part of the history that is sent.")
              : l10n.t(
                  "The model asked for tools again after {0} tool rounds, the limit for one message (setting: tool round cap). Nothing more was run or sent; this answer is not part of the history that is sent.",
                  toolRounds,
                );
          break;
        }
        await this.save(turn);
        const followUpEstimate = estimateNextRequest(this.current, turn, [], this.settings.expensiveSendThresholdTokens, "tool_follow_up");
        await checkpointBeforeRound(turn, proposals, this.tools, (problem) => this.reportCheckpointProblem(problem));
        // The turn's own mode: switching the composer while it runs changes the next message, not this one.
        const tools = toolsInMode(this.tools ?? noTools(), turnModeOf(turn));
        const records = await answerFunctionCalls(
          proposals,
          tools,
          abort.signal,
          (event) => {
            if (event.phase === "finished") this.keepTasksSetBy(event.record);
            this.listener.onToolCall?.(turn.id, event.phase === "proposed" ? { ...event, followUpEstimate } : event);
          },
          { conversationId: this.current.id, turnId: turn.id },
        );
        turn.toolCalls.push(...records);
        if (abort.signal.aborted) {
          turn.outcome = { kind: "cancelled" };
          turn.notice = l10n.t("Cancelled while tool calls were being handled; no follow-up request was sent.");
          break;
        }
        input = records.map((record) => record.output);
        purpose = "tool_follow_up";
        const estimate = estimateNextRequest(this.current, turn, input, this.settings.expensiveSendThresholdTokens, "tool_follow_up");
        if (estimate.needsConfirmation && !(this.confirmExpensiveSend && (await this.confirmExpensiveSend(estimate)))) {
          turn.outcome = { kind: "cancelled" };
          turn.notice = l10n.t(
            "The follow-up request with the tool results (about {0} input tokens, an estimate above your warning threshold of {1}) was not sent.",
            estimate.inputTokens,
            estimate.thresholdTokens,
          );
          break;
        }
      }
    } finally {
      if (this.inFlight === abort) this.inFlight = null;
      if (turn.outcome.kind === "in_progress") turn.outcome = { kind: "not_finished" };
    }
    await checkpointAtTurnEnd(turn, this.tools, (problem) => this.reportCheckpointProblem(problem));
    await this.save(turn);
    this.listener.onTurnEnd?.(turn);
    return { status: "finished", turn };
  }

  /** One HTTP request, recorded in the turn (saved before it is sent) and in the ledger. */
  private sendRequest(turn: Turn, purpose: RequestPurpose, input: InputItem[], maxOutputTokens: number | null, signal: AbortSignal): Promise<RequestResult> {
    return sendTurnRequest(this.requestContext(turn), turn, purpose, input, maxOutputTokens, signal);
  }

  private requestContext(turn: Turn): TurnRequestContext {
    return {
      client: this.client,
      conversation: this.current,
      ledger: this.ledger,
      listener: this.listener,
      model: this.settings.model,
      relay: this.settings.relay,
      priceOf: priceNow(this.settings),
      stream: this.settings.stream,
      // Plan mode's read-only set (plan), then none at all for a model set to get no tools (its model settings).
      tools: offeredTools(this.tools, turnModeOf(turn), this.settings.modelSettings),
      clock: this.clock,
      ids: this.ids,
      redact: this.redact,
      save: () => this.save(turn),
      resolveImages: (items: InputItem[]) => this.store.images.resolve(items),
      instructions: this.settings.instructions,
      protocol: this.settings.protocol,
      instructionsAs: this.settings.instructionsAs,
      modelSettings: this.settings.modelSettings,
    };
  }

  /** An update_tasks call that ran sets the conversation's list (saved with the turn's next save). */
  private keepTasksSetBy(record: ToolCallRecord): void {
    const tasks = tasksSetBy(record);
    if (tasks === null) return;
    this.current.tasks = tasks;
    this.listener.onTasksChanged?.(tasks);
  }

  private reportCheckpointProblem(problem: string): void {
    this.listener.onStorageProblem?.(l10n.t("A checkpoint of the workspace's files could not be taken ({0}); this turn's changes cannot be restored in one step.", problem));
  }

  /** Saves what changed: the turn being answered (or none, when only the branch on screen changed). */
  private async save(turn: Turn | null): Promise<void> {
    this.current.updatedAt = this.clock.now();
    try {
      await this.store.save(this.current, turn === null ? [] : [turn.id]);
    } catch (error) {
      this.listener.onStorageProblem?.(l10n.t("The conversation could not be saved ({0}).", (error as Error).message));
    }
  }

  private async exclusive(work: () => Promise<TurnResult>): Promise<TurnResult> {
    this.assertIdle();
    this.busyFlag = true;
    try {
      return await work();
    } finally {
      this.busyFlag = false;
    }
  }

  private assertIdle(): void {
    if (this.busyFlag) throw new Error(l10n.t("A message is still being answered; wait for it or cancel it first."));
  }
}

/** The price of the model these settings send to, as known whenever asked (the model and relay as they are now). */
function priceNow(settings: ChatSettings): () => ModelPrice | null {
  const { priceOf, model } = settings;
  return () => priceOf?.(model) ?? null;
}
