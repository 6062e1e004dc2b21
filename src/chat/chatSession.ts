import type { CheckpointId } from "../tools/checkpointStore";
import * as l10n from "@vscode/l10n";
import { functionCallsOf, outputTextOf } from "../relay/accumulate";
import type { RelayClient } from "../relay/client";
import type { ModelPrice } from "../relay/modelPrice";
import { redactSecrets } from "../relay/redact";
import { userMessage } from "../relay/requestBuilder";
import type { InputItem, RequestResult, ResponseSnapshot } from "../relay/types";
import { ToolRegistry } from "../tools/toolRegistry";
import type { ChatSettings } from "./chatSettings";
import type { Clock, IdFactory } from "./clock";
import { randomIds, systemClock } from "./clock";
import { compactionBoundary, DEFAULT_COMPACTION_SETTINGS, summaryRequestItems, summaryRequestTurn, summaryText } from "./compaction";
import type { Conversation, RequestPurpose, RequestRecord, ToolCallRecord, Turn, TurnSummary } from "./conversation";
import { activePath, createConversation, findTurn, newestLeafFrom, requireTurn } from "./conversation";
import type { HistoryStore } from "./historyStore";
import type { ImageData } from "./imageStore";
import { userMessageWith } from "./imageStore";
import type { IncompleteTurnAction } from "./incompleteTurn";
import { incompleteActionsFor, largerBudgetFor, lastBudgetOf, requireIncompleteTurn } from "./incompleteTurn";
import { continuationItems } from "./historyItems";
import type { RequestLedger } from "./requestLedger";
import type { SendEstimate } from "./spendGuard";
import { estimateNextRequest, estimateSend, summaryRequestFits, withInstructionTokens, withSpendWarning } from "./spendGuard";
import type { ChatTools, ToolCallEvent } from "./toolRound";
import { answerFunctionCalls } from "./toolRound";
import { toolsForModel } from "./modelRequestOptions";
import { checkpointAtTurnEnd, checkpointBeforeChange, checkpointBeforeRound, recountTurnChanges } from "./turnCheckpoint";
import type { TurnRequestContext } from "./turnRequest";
import { sendTurnRequest } from "./turnRequest";
import type { ChatMode } from "../tools/planMode";
import type { TaskItem } from "../tools/updateTasksTool";
import { modeOf, requestToolsInMode, tasksSetBy, toolsInMode, turnModeOf } from "./planState";

// This file is longer than 400 lines because every way a turn starts (send, continue, retry, regenerate,
// edit, summarize) goes through the one loop here, so the no-retry rule is kept in one place; one request
// and its record are in turnRequest.ts, a tool round in toolRound.ts. The small setters of what a conversation
// keeps beside its turns (rules switched off, mode, task list, a command's note, a restore) are here too only
// because they must not run while a turn does and share its save; they are the next thing to move out.
// The turn loop. One ChatSession drives one conversation: it builds each request from the branch's
// history, streams the answer, answers function calls through the tools module, and stops. It never retries
// on its own: every request may be billed, so each one follows a user action (send, continue, retry,
// regenerate) or is the follow-up the spec requires after a function call, capped per turn. Each of them
// is estimated first and, above the threshold, confirmed. How one request is sent and recorded so that a
// crash loses at most a few seconds of text is in turnRequest.ts.

/** With relayChat.compaction.withoutAsking: at most this many summaries (each billed) before one message. */
const MAX_SUMMARIES_BEFORE_A_SEND = 3;

/** Progress for the panel. Snapshots arrive once per received batch of events, not per event. */
export interface ChatSessionListener {
  onSnapshot?(turnId: string, snapshot: ResponseSnapshot): void;
  /**
   * Answer text that arrived for the turn, in order, as it arrives (once per received batch): appended to
   * what the turn showed so far, with a blank line before the first text of a later request of the turn.
   * The panel forwards it as is, so streaming costs the same at the end of a long answer as at its start.
   * The turn's settled text (after the request ends) is authoritative; these are its live preview.
   */
  onAnswerDelta?(turnId: string, text: string): void;
  /** Reasoning summary text as it streams in, in order: shown apart (collapsed), never as answer text. */
  onReasoningDelta?(turnId: string, text: string): void;
  onToolCall?(turnId: string, event: ToolCallEvent): void;
  onRequestEnd?(turnId: string, record: RequestRecord): void;
  onTurnEnd?(turn: Turn): void;
  /** Saving history or the ledger failed; the turn itself went on. */
  onStorageProblem?(message: string): void;
  /** The model changed the task list (update_tasks ran); it is saved with the conversation. */
  onTasksChanged?(tasks: readonly TaskItem[]): void;
}

export interface ChatSessionOptions {
  client: Pick<RelayClient, "send">;
  store: HistoryStore;
  ledger: RequestLedger;
  settings: ChatSettings;
  /** Without tools, any proposed call is answered with "there is no tool named ...". */
  tools?: ChatTools;
  /**
   * Asked before any request whose estimated input is above the threshold: a new message, Continue, Retry,
   * or the follow-up after tool calls (`estimate.purpose` says which). Without it, a send, Continue or
   * Retry returns `needs_confirmation` (the caller starts it again with `{ confirmed: true }`), and a
   * follow-up above the threshold is not sent (the turn ends `cancelled`, saying why).
   */
  confirmExpensiveSend?: (estimate: SendEstimate) => Promise<boolean>;
  listener?: ChatSessionListener;
  /** An existing conversation to go on with; a new one is started otherwise. */
  conversation?: Conversation;
  /**
   * Removes secrets from error text before it is kept. The relay client redacts most messages, but a
   * service error message inside a stream (`failed`, `error` events) reaches the outcome unredacted, and
   * history must never hold the key: the extension passes `(text) => redactSecrets(text, [apiKey])`.
   * The default only removes `Bearer ...` tokens.
   */
  redact?: (text: string) => string;
  clock?: Clock;
  ids?: IdFactory;
}

export type TurnResult =
  | { status: "finished"; turn: Turn }
  | { status: "needs_confirmation"; estimate: SendEstimate }
  | { status: "declined"; estimate: SendEstimate };

export interface SendOptions {
  /** The user already agreed to an expensive send. */
  confirmed?: boolean;
  /** Images sent beside the text (a new message only; a regenerated turn keeps its own). */
  images?: readonly ImageData[];
  /** What the model is told, before the text, about the person's review of its proposed edits (reviewNote.ts). */
  reviewNote?: string | null;
}

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

  /** Plan or Act for the next message; a turn under way keeps the mode it started in. Saved with the conversation. */
  async setMode(mode: ChatMode): Promise<void> {
    if (modeOf(this.current) === mode) return;
    this.current.mode = mode;
    await this.save(null);
  }

  /** The person's change to the task list (ticked or removed an item); the next request carries it. */
  async setTasks(tasks: readonly TaskItem[]): Promise<void> {
    this.current.tasks = [...tasks];
    await this.save(null);
  }

  /** Puts the branch through `turnId` on screen (its newest continuation), and saves that choice. */
  async showBranch(turnId: string): Promise<void> {
    this.assertIdle();
    this.current.activeTurnId = newestLeafFrom(this.current, turnId);
    await this.save(null);
  }

  /**
   * Changes files on a finished turn's behalf (Apply to file on its answer) between two checkpoints of the
   * turn, so its "N files changed", Review and Restore include the change; saved with the turn.
   */
  async changeFilesForTurn(turnId: string, change: () => Promise<void>): Promise<void> {
    this.assertIdle();
    const turn = requireTurn(this.current, turnId);
    const report = (problem: string) => this.reportCheckpointProblem(problem);
    await checkpointBeforeChange(turn, this.tools, report);
    try {
      await change();
    } finally {
      await checkpointAtTurnEnd(turn, this.tools, report);
      await this.save(turn);
    }
  }

  /** After a review of the model's edits settled: the turns whose "N files changed" changed, saved with the new count. */
  async recountChangedFiles(): Promise<string[]> {
    if (this.busy) return [];
    const recounted: string[] = [];
    for (const turn of activePath(this.current)) {
      if (!(await recountTurnChanges(turn, this.tools))) continue;
      await this.save(turn);
      recounted.push(turn.id);
    }
    return recounted;
  }

  /** Records that the turn's files were restored (with the checkpoint Undo restore goes back to), or that the restore was undone (null). */
  async recordRestore(turnId: string, restoredFrom: CheckpointId | null): Promise<void> {
    const turn = requireTurn(this.current, turnId);
    if (!turn.checkpoint) return;
    if (restoredFrom) turn.checkpoint.restoredFrom = restoredFrom;
    else delete turn.checkpoint.restoredFrom;
    await this.save(turn);
  }

  /**
   * Switches project rules files off (or back on) for this conversation; saved with it once it has a turn. An
   * empty list is kept rather than removed, so the journal records that the files were switched back on.
   */
  async setRulesOff(ids: readonly string[]): Promise<void> {
    this.current.rulesOff = [...ids];
    if (this.current.turns.length > 0) await this.save(null);
  }

  /** Records what a slash command did with the turn's answer (/commit: where the message went); the turn shows it. */
  async recordCommandNote(turnId: string, note: string): Promise<void> {
    requireTurn(this.current, turnId).commandNote = note;
    await this.save(requireTurn(this.current, turnId));
  }

  /** The actions an `incomplete` turn offers, with their billing note; empty for any other turn. */
  incompleteActions(turnId: string): IncompleteTurnAction[] {
    return incompleteActionsFor(this.current, turnId);
  }

  /**
   * Sends an `incomplete` turn with later messages after all (the person's choice): its message and the partial
   * answer, as plain messages. Saved with the conversation, so it stays included.
   */
  async includeIncompleteTurn(turnId: string): Promise<void> {
    this.assertIdle();
    const turn = requireTurn(this.current, turnId);
    if (turn.outcome.kind !== "incomplete" || turn.includeIncomplete) return;
    turn.includeIncomplete = true;
    await this.save(turn);
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
    if (boundary === null) throw new Error(l10n.t("There are no earlier turns to summarize: the last {0} turns are always sent as they are.", compaction.keepTurns));
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
      tools: toolsForModel(this.tools && requestToolsInMode(this.tools, turnModeOf(turn)), this.settings.modelSettings),
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

let noToolsAvailable: ChatTools | null = null;

/** The price of the model these settings send to, as known whenever asked (the model and relay as they are now). */
function priceNow(settings: ChatSettings): () => ModelPrice | null {
  const { priceOf, model } = settings;
  return () => priceOf?.(model) ?? null;
}

/** A session without tools still answers every proposed call, with "there is no tool named ...". */
function noTools(): ChatTools {
  noToolsAvailable ??= { registry: new ToolRegistry([]), availability: () => ({ trusted: false, disabledToolNames: new Set() }), approve: async () => "deny", maxResultChars: 4000 };
  return noToolsAvailable;
}
