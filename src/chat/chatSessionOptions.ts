import type { RelayClient } from "../relay/client";
import type { ResponseSnapshot } from "../relay/types";
import type { TaskItem } from "../tools/updateTasksTool";
import type { ChatSettings } from "./chatSettings";
import type { Clock, IdFactory } from "./clock";
import type { Conversation, RequestRecord, Turn } from "./conversation";
import type { HistoryStore } from "./historyStore";
import type { ImageData } from "./imageStore";
import type { RequestLedger } from "./requestLedger";
import type { SendEstimate } from "./spendGuard";
import type { ChatTools, ToolCallEvent } from "./toolRound";

// What a ChatSession (chatSession.ts) is given, what it reports while a turn runs, and what a turn's start returns.

/** Progress for the panel. Snapshots arrive once per received batch of events, not per event. */
export interface ChatSessionListener {
  /** A request of the turn is about to be sent (it is saved, in progress). */
  onRequestStart?(turnId: string): void;
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
