import type { FunctionCallOutputItem, InputItem, OutputItem, RequestOutcome, Usage } from "../relay/types";

// The shape of a saved conversation. Turns form a tree (each points at the turn it follows), so editing a
// message or regenerating an answer adds a sibling branch and the original stays reachable. The items the
// service sent are kept verbatim in `items`; everything the UI needs (outcome, timing, receipts) lives in
// fields beside them, never inside an item, because the items are resent exactly as received.

export const CONVERSATION_SCHEMA_VERSION = 1;

/** Why a turn ended. Only `completed` turns contribute their items to later requests. */
export type TurnOutcome =
  | RequestOutcome
  /** A request of the turn is still running (or the editor stopped while it was). */
  | { kind: "in_progress" }
  /** The model kept calling tools; the loop stopped at the per-turn cap. */
  | { kind: "tool_round_limit"; rounds: number }
  /** Saved while in progress and then the process ended: nothing is known about the last request. */
  | { kind: "not_finished" };

export type TurnOutcomeKind = TurnOutcome["kind"];

/**
 * Why a request was made, so the ledger and the panel can tell a billed follow-up from a first send.
 * `vscode_chat` is a request VS Code's own chat made to a relay model (src/lm); it is in no conversation.
 */
export type RequestPurpose = "send" | "tool_follow_up" | "continue" | "retry_larger" | "vscode_chat";

/** One HTTP request of a turn, as far as history and display need it. The ledger keeps the full receipt. */
export interface RequestRecord {
  purpose: RequestPurpose;
  startedAt: number;
  model: string;
  streamed: boolean;
  maxOutputTokens: number | null;
  outcome: RequestOutcome;
  /** A sentence naming the likely cause, for anything but `completed`. Already free of the key. */
  explanation: string | null;
  httpStatus: number | null;
  requestId: string | null;
  responseId: string | null;
  usage: Usage | null;
  /** Latency to the first byte and to the end, for the receipt; absent in files saved before they existed. */
  firstByteMs?: number | null;
  totalMs?: number;
  /** The `output` items as received, complete or partial; shown, and resent only via `Turn.items`. */
  output: OutputItem[];
}

/** A tool call the turn handled, for display: what was proposed and what the model was told. */
export interface ToolCallRecord {
  callId: string;
  name: string;
  arguments: string;
  /** ready = arguments valid (then approved or declined), rejected = never shown to the user. */
  status: "ready" | "rejected";
  output: FunctionCallOutputItem;
}

export interface Turn {
  id: string;
  /** The turn this one follows on its branch; null for a first turn. */
  parentId: string | null;
  userText: string;
  createdAt: number;
  /**
   * The items this turn adds to the history, in order: the user message, the output of every completed
   * request, the function_call_output items, and for Continue the partial answer and the request to go on.
   * Sent again only when `outcome` is `completed`.
   */
  items: InputItem[];
  requests: RequestRecord[];
  toolCalls: ToolCallRecord[];
  outcome: TurnOutcome;
  /** The answer text shown for a turn that did not complete (what arrived before it stopped). */
  partialText: string;
  /** A sentence for the user about the outcome, when there is something to say. */
  notice: string | null;
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
}

export function createConversation(id: string, model: string, now: number): Conversation {
  return { schemaVersion: CONVERSATION_SCHEMA_VERSION, id, title: "", createdAt: now, updatedAt: now, model, turns: [], activeTurnId: null };
}

export function findTurn(conversation: Conversation, turnId: string): Turn | undefined {
  return conversation.turns.find((turn) => turn.id === turnId);
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
  return conversation.turns.filter((turn) => turn.parentId === parentId);
}

/** The alternatives at a branch point, oldest first (the turn itself included). */
export function siblingsOf(conversation: Conversation, turnId: string): Turn[] {
  return childrenOf(conversation, requireTurn(conversation, turnId).parentId);
}

/** The last turn reached from `turnId` by always following the newest child: what "show this branch" opens. */
export function newestLeafFrom(conversation: Conversation, turnId: string): string {
  let current = requireTurn(conversation, turnId);
  for (;;) {
    const children = childrenOf(conversation, current.id);
    if (children.length === 0) return current.id;
    current = children.reduce((newest, child) => (child.createdAt >= newest.createdAt ? child : newest));
  }
}

export function isTurnSettled(turn: Turn): boolean {
  return turn.outcome.kind !== "in_progress";
}
