import { functionCallsOf, outputTextOf } from "../relay/accumulate";
import type { RelayClient } from "../relay/client";
import { buildResponseRequest, userMessage } from "../relay/requestBuilder";
import { redactSecrets } from "../relay/redact";
import type { RequestOutcome, RequestResult, ResponseSnapshot } from "../relay/types";
import { ToolRegistry } from "../tools/toolRegistry";
import type { ChatSettings } from "./chatSettings";
import type { Clock, IdFactory } from "./clock";
import { randomIds, systemClock } from "./clock";
import type { Conversation, RequestPurpose, RequestRecord, Turn } from "./conversation";
import { createConversation, findTurn, childrenOf, newestLeafFrom, requireTurn } from "./conversation";
import type { HistoryStore } from "./historyStore";
import { continuationItems, requestInputFor } from "./historyItems";
import type { RequestLedger } from "./requestLedger";
import { ledgerRowFor } from "./requestLedger";
import type { SendEstimate } from "./spendGuard";
import { estimateSend } from "./spendGuard";
import type { ChatTools, ToolCallEvent } from "./toolRound";
import { answerFunctionCalls } from "./toolRound";

// The turn loop. One ChatSession drives one conversation: it builds each request from the branch's
// history, streams the answer, answers function calls through the tools module, and stops. It never retries
// on its own: every request may be billed, so each one follows a user action (send, continue, retry,
// regenerate) or is the follow-up the spec requires after a function call, capped per turn.

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
  onToolCall?(turnId: string, event: ToolCallEvent): void;
  onRequestEnd?(turnId: string, record: RequestRecord): void;
  onTurnEnd?(turn: Turn): void;
  /** Saving history or the ledger failed; the turn itself went on. */
  onStorageProblem?(message: string): void;
}

export interface ChatSessionOptions {
  client: Pick<RelayClient, "send">;
  store: HistoryStore;
  ledger: RequestLedger;
  settings: ChatSettings;
  /** Without tools, any proposed call is answered with "there is no tool named ...". */
  tools?: ChatTools;
  /**
   * Asked before a send whose estimated input is above the threshold. Without it, such a send returns
   * `needs_confirmation` and the caller sends again with `{ confirmed: true }`.
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
}

/** What the panel may offer for an `incomplete` turn; both are new requests the relay may bill. */
export interface IncompleteTurnAction {
  action: "continue" | "retry_larger";
  label: string;
  billingNote: string;
  /** For retry_larger: the budget that would be sent. */
  maxOutputTokens?: number;
}

const MINIMUM_RETRY_BUDGET = 1024;

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

  /** Sends an edited version of a turn's message as a new branch; the original turn stays reachable. */
  editAndResend(turnId: string, newText: string, options: SendOptions = {}): Promise<TurnResult> {
    return this.startTurn(requireTurn(this.current, turnId).parentId, newText, options);
  }

  /** Asks again for the same message as a new branch; the earlier answer stays reachable. */
  regenerate(turnId: string, options: SendOptions = {}): Promise<TurnResult> {
    const turn = requireTurn(this.current, turnId);
    return this.startTurn(turn.parentId, turn.userText, options);
  }

  /** Puts the branch through `turnId` on screen (its newest continuation), and saves that choice. */
  async showBranch(turnId: string): Promise<void> {
    this.assertIdle();
    this.current.activeTurnId = newestLeafFrom(this.current, turnId);
    await this.save();
  }

  /** The actions an `incomplete` turn offers, with their billing note; empty for any other turn. */
  incompleteActions(turnId: string): IncompleteTurnAction[] {
    const turn = findTurn(this.current, turnId);
    if (!turn || turn.outcome.kind !== "incomplete" || childrenOf(this.current, turn.id).length > 0) return [];
    const billingNote = "This sends a new request with the whole conversation; the relay may bill it.";
    return [
      { action: "continue", label: "Continue", billingNote },
      { action: "retry_larger", label: "Retry with a larger output budget", billingNote, maxOutputTokens: this.largerBudgetFor(turn) },
    ];
  }

  /**
   * Continue an `incomplete` answer: one new request carrying the partial answer and asking the model to go
   * on. Possibly billed; only ever called on the user's request.
   */
  continueTurn(turnId: string): Promise<TurnResult> {
    return this.exclusive(async () => {
      const turn = this.incompleteTurn(turnId);
      turn.items.push(...continuationItems(turn.partialText));
      return this.runTurn(turn, "continue", this.lastBudgetOf(turn));
    });
  }

  /** Sends the incomplete request again with a larger `max_output_tokens`. Possibly billed; user-initiated only. */
  retryWithLargerBudget(turnId: string, maxOutputTokens?: number): Promise<TurnResult> {
    return this.exclusive(async () => {
      const turn = this.incompleteTurn(turnId);
      return this.runTurn(turn, "retry_larger", maxOutputTokens ?? this.largerBudgetFor(turn));
    });
  }

  /** Aborts the request or tool call in flight; the turn ends as `cancelled`. */
  cancel(): void {
    this.inFlight?.abort();
  }

  private startTurn(parentId: string | null, text: string, options: SendOptions): Promise<TurnResult> {
    return this.exclusive(async () => {
      if (parentId !== null) requireTurn(this.current, parentId);
      const estimate = estimateSend(this.current, parentId, text, this.settings.expensiveSendThresholdTokens);
      if (estimate.needsConfirmation && !options.confirmed) {
        if (!this.confirmExpensiveSend) return { status: "needs_confirmation", estimate };
        if (!(await this.confirmExpensiveSend(estimate))) return { status: "declined", estimate };
      }
      const turn: Turn = {
        id: this.ids("turn"),
        parentId,
        userText: text,
        createdAt: this.clock.now(),
        items: [userMessage(text)],
        requests: [],
        toolCalls: [],
        outcome: { kind: "in_progress" },
        partialText: "",
        notice: null,
      };
      this.current.turns.push(turn);
      this.current.activeTurnId = turn.id;
      return this.runTurn(turn, "send", this.settings.maxOutputTokens);
    });
  }

  /** Runs requests for one turn until it completes, stops, or hits the tool-round cap. */
  private async runTurn(turn: Turn, firstPurpose: RequestPurpose, maxOutputTokens: number | null): Promise<TurnResult> {
    const abort = new AbortController();
    this.inFlight = abort;
    turn.outcome = { kind: "in_progress" };
    turn.partialText = "";
    turn.notice = null;
    try {
      let purpose = firstPurpose;
      for (let toolRounds = 0; ; toolRounds += 1) {
        const result = await this.sendRequest(turn, purpose, maxOutputTokens, abort.signal);
        if (result.outcome.kind !== "completed") {
          turn.outcome = result.outcome;
          turn.partialText = outputTextOf(result.snapshot.output);
          turn.notice = result.explanation;
          break;
        }
        turn.items.push(...result.snapshot.output);
        const proposals = functionCallsOf(result.snapshot.output);
        if (proposals.length === 0) {
          turn.outcome = { kind: "completed" };
          break;
        }
        if (toolRounds >= this.settings.toolRoundCap) {
          turn.outcome = { kind: "tool_round_limit", rounds: toolRounds };
          turn.notice =
            `The model asked for tools again after ${toolRounds} tool round${toolRounds === 1 ? "" : "s"}, the limit for one message ` +
            `(setting: tool round cap). Nothing more was run or sent; this answer is not part of the history that is sent.`;
          break;
        }
        await this.save();
        const records = await answerFunctionCalls(proposals, this.tools ?? noTools(), abort.signal, (event) => this.listener.onToolCall?.(turn.id, event));
        turn.toolCalls.push(...records);
        if (abort.signal.aborted) {
          turn.outcome = { kind: "cancelled" };
          turn.notice = "Cancelled while tool calls were being handled; no follow-up request was sent.";
          break;
        }
        turn.items.push(...records.map((record) => record.output));
        purpose = "tool_follow_up";
      }
    } finally {
      if (this.inFlight === abort) this.inFlight = null;
      if (turn.outcome.kind === "in_progress") turn.outcome = { kind: "not_finished" };
    }
    await this.save();
    this.listener.onTurnEnd?.(turn);
    return { status: "finished", turn };
  }

  /** One HTTP request, recorded in the turn and in the ledger, with the history saved right after. */
  private async sendRequest(turn: Turn, purpose: RequestPurpose, maxOutputTokens: number | null, signal: AbortSignal): Promise<RequestResult> {
    const model = this.settings.model;
    const request = buildResponseRequest({
      model,
      input: requestInputFor(this.current, turn),
      tools: this.tools?.registry.requestTools(this.tools.availability),
      maxOutputTokens,
      stream: this.settings.stream,
    });
    let separator = turn.requests.some((earlier) => outputTextOf(earlier.output).length > 0) ? "\n\n" : "";
    const received = await this.client.send(request, {
      signal,
      onEvents: (events, snapshot) => {
        this.listener.onSnapshot?.(turn.id, snapshot);
        if (!this.listener.onAnswerDelta) return;
        let text = "";
        for (const event of events) if (event.type === "response.output_text.delta" && typeof event.delta === "string") text += event.delta;
        if (text === "") return;
        this.listener.onAnswerDelta(turn.id, separator + text);
        separator = "";
      },
    });
    const result: RequestResult = { ...received, outcome: redactOutcome(received.outcome, this.redact), explanation: received.explanation === null ? null : this.redact(received.explanation) };
    const record: RequestRecord = {
      purpose,
      startedAt: result.timing.startedAt,
      model,
      streamed: result.streamed,
      maxOutputTokens: request.max_output_tokens ?? null,
      outcome: result.outcome,
      explanation: result.explanation,
      httpStatus: result.httpStatus,
      requestId: result.requestId,
      responseId: result.snapshot.responseId,
      usage: result.snapshot.usage,
      firstByteMs: result.timing.firstByteMs === null ? null : Math.round(result.timing.firstByteMs),
      totalMs: Math.round(result.timing.totalMs),
      output: [...result.snapshot.output],
    };
    turn.requests.push(record);
    this.current.model = model;
    this.listener.onRequestEnd?.(turn.id, record);
    try {
      await this.ledger.record(ledgerRowFor(result, { conversationId: this.current.id, turnId: turn.id, purpose, model }));
    } catch (error) {
      this.listener.onStorageProblem?.(`The request could not be added to the request ledger (${(error as Error).message}).`);
    }
    return result;
  }

  private async save(): Promise<void> {
    this.current.updatedAt = this.clock.now();
    try {
      await this.store.save(this.current);
    } catch (error) {
      this.listener.onStorageProblem?.(`The conversation could not be saved (${(error as Error).message}).`);
    }
  }

  private incompleteTurn(turnId: string): Turn {
    const turn = requireTurn(this.current, turnId);
    if (turn.outcome.kind !== "incomplete") throw new Error("Only an incomplete answer can be continued or retried with a larger budget.");
    if (childrenOf(this.current, turn.id).length > 0) throw new Error("This answer already has later messages; regenerate it instead.");
    return turn;
  }

  private lastBudgetOf(turn: Turn): number | null {
    return turn.requests[turn.requests.length - 1]?.maxOutputTokens ?? this.settings.maxOutputTokens;
  }

  private largerBudgetFor(turn: Turn): number {
    const last = turn.requests[turn.requests.length - 1];
    const used = typeof last?.usage?.output_tokens === "number" ? last.usage.output_tokens : 0;
    return Math.max(MINIMUM_RETRY_BUDGET, 2 * (last?.maxOutputTokens ?? 0), 2 * used);
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
    if (this.busyFlag) throw new Error("A message is still being answered; wait for it or cancel it first.");
  }
}

function redactOutcome(outcome: RequestOutcome, redact: (text: string) => string): RequestOutcome {
  const copy: Record<string, unknown> = { ...outcome };
  for (const [field, value] of Object.entries(copy)) if (typeof value === "string" && field !== "kind") copy[field] = redact(value);
  return copy as unknown as RequestOutcome;
}

let noToolsAvailable: ChatTools | null = null;

/** A session without tools still answers every proposed call, with "there is no tool named ...". */
function noTools(): ChatTools {
  noToolsAvailable ??= { registry: new ToolRegistry([]), availability: { trusted: false, disabledToolNames: new Set() }, approve: async () => "deny", maxResultChars: 4000 };
  return noToolsAvailable;
}
