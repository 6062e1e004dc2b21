import type { FunctionCallOutputItem, FunctionToolDefinition, InputItem, OutputItem, RequestOutcome, Usage } from "../relay/types";
import type { CheckpointId } from "../tools/checkpointStore";
import type { ToolCallOutcome } from "../tools/runToolCall";
import type { ApprovedBy } from "../tools/approvalPolicy";
import type { ChatMode } from "../tools/planMode";
import type { TaskItem } from "../tools/updateTasksTool";
import type { RequestCost, SentModelSettings } from "./requestRecordParts";
import { turnById, turnsWithParent } from "./turnIndex";

// The shape of a saved conversation. Turns form a tree (each points at the turn it follows), so editing a
// message or regenerating an answer adds a sibling branch and the original stays reachable. Each request
// of a turn keeps the items it added to the history (`input`) and the items the service sent (`output`),
// each stored once; the history a later request sends is rebuilt from them (historyItems.ts), with the
// service's items unchanged. Everything the UI needs (outcome, timing, receipts) lives beside the items,
// never inside one, because the items are resent exactly as received.

export const CONVERSATION_SCHEMA_VERSION = 2;

/** Why a turn ended. Only `completed` turns contribute their items to later requests. */
export type TurnOutcome =
  | RequestOutcome
  /** A request of the turn is still running (or the editor stopped while it was). */
  | { kind: "in_progress" }
  /** The model kept calling tools; the loop stopped at the per-turn cap. */
  | { kind: "tool_round_limit"; rounds: number }
  /** The turn stopped on an unexpected error in Relay Chat itself; nothing more is known about it. */
  | { kind: "not_finished" };

export type TurnOutcomeKind = TurnOutcome["kind"];

/**
 * Why a request was made, so the ledger and the panel can tell a billed follow-up from a first send.
 * `summarize` asks for a summary of earlier turns (compaction.ts); it belongs to the last turn it summarized.
 * `vscode_chat` is a request VS Code's own chat made to a relay model (src/lm); it is in no conversation.
 * `edit_in_place` is an Edit with Relay Chat request from the editor (src/editInPlace); in no conversation either.
 */
export type RequestPurpose = "send" | "tool_follow_up" | "continue" | "retry_larger" | "summarize" | "vscode_chat" | "edit_in_place";

/** Where a request stands: its outcome, or `in_progress` while it runs (saved so a crash leaves a trace). */
export type RequestState = RequestOutcome | { kind: "in_progress" };

/** One HTTP request of a turn: what it added to the history, what it received, and its receipt. */
export interface RequestRecord {
  purpose: RequestPurpose;
  startedAt: number;
  model: string;
  /** The relay profile that answered (absent in files saved before several relays). */
  relay?: string;
  /** What the request cost: estimated from the model's price, billed where the relay said; absent when unknown. */
  cost?: RequestCost;
  /** Reasoning items another relay produced, left out of what this request resent. */
  otherRelayReasoningLeftOut?: number;
  /** "chat": sent over Chat Completions (/v1/chat/completions); absent: the Responses interface. */
  protocol?: "chat";
  /** Reasoning items of the history a Chat Completions request could not carry (the Responses interface's), left out of it. */
  chatReasoningLeftOut?: number;
  /** Parts of messages (files and the like) a Chat Completions request could not carry, left out of it. */
  chatPartsLeftOut?: number;
  /** Reasoning read from Chat Completions answers, left out of a request over the Responses interface (it has no field for it). */
  responsesReasoningLeftOut?: number;
  /** Tool calls the answer proposed beyond the most one answer may hold: refused, never run. */
  refusedToolCalls?: number;
  streamed: boolean;
  maxOutputTokens: number | null;
  outcome: RequestState;
  /** A sentence naming the likely cause, for anything but `completed`. Already free of the key. */
  explanation: string | null;
  httpStatus: number | null;
  /** The id that matches the relay's usage log (a relay-specific header wins over a generic one). */
  requestId: string | null;
  /** Every request id the answer carried, `requestId` first; absent when there was at most one. */
  requestIds?: string[];
  responseId: string | null;
  /** Usage to show and add up; null when the relay reported none, or only zeros for a non-empty answer. */
  usage: Usage | null;
  /** What the relay sent as usage when it is not what is counted (all zeros, or figures that cannot be believed), kept for the record. */
  reportedUsage?: Usage;
  /** Latency to the first byte and to the end, for the receipt; absent in files saved before they existed. */
  firstByteMs?: number | null;
  totalMs?: number;
  /**
   * The items this request added to the history before it was sent, after everything earlier on the
   * branch: the user message (first request), the function_call_output items (a follow-up), the partial
   * answer and the request to go on (Continue), nothing (a retry with a larger budget).
   */
  input: InputItem[];
  /** The `output` items as received, complete or partial (saved every few seconds while streaming). */
  output: OutputItem[];
  /** The tools offered with this request: a key of `Conversation.toolSets`; absent when none were. */
  toolSetId?: string;
  /** Which instruction sources went with it and a hash of their text (the text once per conversation, sentInstructions.ts); absent when none did. */
  instructions?: InstructionsRecord;
  /** The request's `include` list, when it had one. */
  include?: string[];
  /** What the model's own settings (relayChat.modelSettings) put in the request; absent when nothing. */
  modelSettings?: SentModelSettings;
  /** The instructions went as a `developer` message first in the input (the relay drops the field); absent: the `instructions` field. */
  instructionsAs?: "developer";
  /** The extra, non-secret request headers it was sent with (from the settings), when there were any. */
  extraHeaders?: Record<string, string>;
  /** Streamed items the relay's final response left out (kept in `output`); absent when none. */
  omittedStreamedItems?: number;
  /** Events the relay sent that could not be read (not JSON), when there were any: the answer may be missing text. */
  unreadableEvents?: number;
  /** How much of the answer had arrived when it was last saved; for a request cut short by a crash. */
  received?: { bytes: number; events: number };
}

/** A tool call the turn handled, for display: what was proposed and what the model was told. */
export interface ToolCallRecord {
  callId: string;
  name: string;
  arguments: string;
  /** ready = arguments valid (then approved or declined), rejected = never shown to the user. */
  status: "ready" | "rejected";
  output: FunctionCallOutputItem;
  /** What happened (ran, failed, denied, not run and why); absent in files saved before it was recorded. */
  outcome?: ToolCallOutcome;
  /** Why it ran without asking (a rule of relayChat.tools.autoApprove, or a session allowance); absent when the person approved it. */
  approvedBy?: ApprovedBy;
}

export interface Turn {
  id: string;
  /** The turn this one follows on its branch; null for a first turn. */
  parentId: string | null;
  userText: string;
  /** Stored names of the images sent with the message (see imageStore.ts); absent when none. */
  images?: string[];
  /** What the model was told before the message about the review of its proposed edits (reviewNote.ts); absent when nothing. */
  reviewNote?: string;
  /** What a slash command did with the answer (/commit: the message went to Source Control); absent: nothing. */
  commandNote?: string;
  /**
   * The answer ended `incomplete` and the person chose to send it with later messages anyway: the message and
   * the partial text go as plain messages (historyItems.ts). Absent: an incomplete turn is not sent.
   */
  includeIncomplete?: true;
  createdAt: number;
  /**
   * The requests of the turn, in order; the one running is last, with outcome `in_progress`. The turn's
   * history items are each request's `input` followed by its `output` when it completed; they are sent
   * again with later messages only when the turn's `outcome` is `completed`.
   */
  requests: RequestRecord[];
  toolCalls: ToolCallRecord[];
  outcome: TurnOutcome;
  /** A sentence for the user about the outcome, when there is something to say. */
  notice: string | null;
  /**
   * Only in a turn upgraded from an older file whose items could not be matched to its requests: its
   * history items exactly as that file held them, sent instead of the ones rebuilt from the requests.
   */
  legacyItems?: InputItem[];
  /** Checkpoints of the workspace's files around the turn's tool rounds that could change them; absent when none ran. */
  checkpoint?: TurnCheckpoint;
  /** Why the checkpoint before the turn's first change to files could not be taken: it has no Restore. */
  checkpointProblem?: string;
  /**
   * A summary of the branch from the first turn down to this one, asked for by the person (compaction.ts).
   * Once its request completed, every later request on a branch through this turn sends the summary
   * instead of these turns' items; the turns themselves stay. Absent when none was made here.
   */
  summary?: TurnSummary;
  /** Sent in Plan mode (read-only tools, told to propose a plan); absent: Act. */
  mode?: "plan";
}

/** A summary that replaces the turns up to the one it is stored on in what later requests send. */
export interface TurnSummary {
  /** The summarize request (one); its completed answer's text is the summary. */
  requests: RequestRecord[];
  /** How many turns it replaced (earlier summaries count as the turns they replaced). */
  replacedTurns: number;
  /** The estimated input tokens of the next message before and after the summary replaced the turns. */
  estimatedTokensBefore: number;
  estimatedTokensAfter: number | null;
}

/** The workspace's files before and after a turn's tools could change them (see src/tools/checkpointStore). */
export interface TurnCheckpoint {
  /** Taken before the turn's first tool round that could change files. */
  before: CheckpointId;
  /** Taken when the turn ended; null when it could not be taken. */
  after: CheckpointId | null;
  /** How many files differ between the two. */
  changedFiles: number;
  /** Set while the turn's files are restored: the checkpoint taken just before the restore, which Undo restore puts back. */
  restoredFrom?: CheckpointId;
}

export interface Conversation {
  schemaVersion: typeof CONVERSATION_SCHEMA_VERSION;
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  model: string;
  turns: Turn[];
  /** The last turn of the branch on screen; the path to it from the root is what gets sent. */
  activeTurnId: string | null;
  /** The tool lists offered with requests, stored once each and named by a hash of their JSON. */
  toolSets?: Record<string, FunctionToolDefinition[]>;
  /** Project rules files switched off for this conversation (the Rules chip), as `folder/path`; absent: none. */
  rulesOff?: string[];
  /** Plan or Act for the next message (the switch in the composer); absent: Act. */
  mode?: ChatMode;
  /** The task list the model keeps with update_tasks and the person ticks; absent: none yet. */
  tasks?: TaskItem[];
}

export function createConversation(id: string, model: string, now: number): Conversation {
  return { schemaVersion: CONVERSATION_SCHEMA_VERSION, id, title: "", createdAt: now, updatedAt: now, model, turns: [], activeTurnId: null };
}

export function findTurn(conversation: Conversation, turnId: string): Turn | undefined {
  return turnById(conversation.turns, turnId);
}

export function requireTurn(conversation: Conversation, turnId: string): Turn {
  const turn = findTurn(conversation, turnId);
  if (!turn) throw new Error(`Conversation ${conversation.id} has no turn ${turnId}.`);
  return turn;
}

/** The turns from the first one down to `lastTurnId`, in order. */
export function pathTo(conversation: Conversation, lastTurnId: string | null): Turn[] {
  const byId = new Map(conversation.turns.map((turn) => [turn.id, turn]));
  const path: Turn[] = [];
  const seen = new Set<string>();
  for (let id = lastTurnId; id !== null; ) {
    const turn = byId.get(id);
    // A cycle or a dangling parent can only come from a damaged file; stop rather than loop.
    if (!turn || seen.has(id)) break;
    seen.add(id);
    path.push(turn);
    id = turn.parentId;
  }
  return path.reverse();
}

export function activePath(conversation: Conversation): Turn[] {
  return pathTo(conversation, conversation.activeTurnId);
}

export function childrenOf(conversation: Conversation, parentId: string | null): Turn[] {
  return turnsWithParent(conversation.turns, parentId);
}

/** The alternatives at a branch point, oldest first (the turn itself included). */
export function siblingsOf(conversation: Conversation, turnId: string): Turn[] {
  return childrenOf(conversation, requireTurn(conversation, turnId).parentId);
}

/** The last turn reached from `turnId` by always following the newest child: what "show this branch" opens. */
export function newestLeafFrom(conversation: Conversation, turnId: string): string {
  let current = requireTurn(conversation, turnId);
  // A cycle can only come from a damaged file (files with one are refused when read); stop rather than loop.
  const seen = new Set<string>([current.id]);
  for (;;) {
    const children = childrenOf(conversation, current.id).filter((child) => !seen.has(child.id));
    if (children.length === 0) return current.id;
    current = children.reduce((newest, child) => (child.createdAt >= newest.createdAt ? child : newest));
    seen.add(current.id);
  }
}

export function isTurnSettled(turn: Turn): boolean {
  return turn.outcome.kind !== "in_progress";
}

/** The instruction sources a request carried (names as "What the model is told" shows them) and a hash of the text. */
export interface InstructionsRecord {
  sources: string[];
  hash: string;
  /** The text, on the first request of the conversation that sent it (sentInstructions.ts); never in the request log. */
  text?: string;
}
