// The messages between the extension host and the chat webview. This file imports nothing: it is
// compiled on both sides (media/tsconfig.json includes it), so the compiler guards both ends, and every
// message that crosses postMessage is checked by the guards below before it is used.

export type OutcomeKind =
  | "completed"
  | "incomplete"
  | "failed"
  | "error_event"
  | "interrupted"
  | "timed_out"
  | "cancelled"
  | "http_error"
  | "network_error"
  | "in_progress"
  | "tool_round_limit"
  | "not_finished";

/** What a button in an error offers; the host carries it out. */
export type FixAction = "setApiKey" | "openSettings" | "selectModel" | "checkConnection";

export interface UsageView {
  inputTokens: number | null;
  cachedTokens: number | null;
  outputTokens: number | null;
  reasoningTokens: number | null;
}

/** One HTTP request of a turn, as its receipt shows it. */
export interface ReceiptView {
  purpose: string;
  outcome: OutcomeKind;
  /** "completed", "incomplete (max_output_tokens)", "HTTP 401 (invalid_api_key)"... already localized. */
  outcomeLabel: string;
  usage: UsageView | null;
  latencyMs: number | null;
  firstByteMs: number | null;
  requestId: string | null;
  httpStatus: number | null;
  model: string;
}

/** What happened to a tool call; the card never says "ran" unless it ran. */
export type ToolCallOutcomeView = "ran" | "failed" | "denied" | "invalid_arguments" | "unavailable" | "stopped" | "stopped_while_running";

export interface ToolCallView {
  callId: string;
  name: string;
  argumentsJson: string;
  status: "ready" | "rejected";
  /** The text the model was told (result, refusal, or the problem with the call). */
  output: string;
  /** Always set by the host (derived from the text for calls saved before it was recorded). */
  outcome?: ToolCallOutcomeView;
  /** For failed and not-run calls: the error or the reason, in a line. */
  outcomeDetail?: string | null;
}

export interface TurnView {
  id: string;
  userText: string;
  /** Markdown of the answer so far (completed text, or the partial text of an unfinished turn). */
  answerText: string;
  /** True while this turn's request is in flight; deltas then append to `answerText`. */
  streaming: boolean;
  outcome: OutcomeKind;
  outcomeLabel: string;
  /** A sentence naming the likely cause and what to do, for anything but completed. */
  explanation: string | null;
  fixes: FixAction[];
  /** The turn produced reasoning items; shown as a collapsed note, never as answer text. */
  hasReasoning: boolean;
  /** Output item kinds the panel does not render (kept in history, listed in the receipt). */
  otherItemKinds: string[];
  toolCalls: ToolCallView[];
  receipts: ReceiptView[];
  /** Retry and Continue, where they apply; each sends a new, possibly billed request. */
  actions: Array<"retry" | "continue">;
  /** Other branches exist at this turn (edit or regenerate); `branchIndex` of `branchCount`. */
  branchIndex: number;
  branchCount: number;
}

/** One argument of a call waiting for approval, as it will be used (see src/tools/approvalDisplay.ts). */
export interface ApprovalDetailView {
  /** The argument's name as the model sent it. */
  name: string;
  /** command: a command line as the shell gets it; folder and path: relative to the workspace; value: anything else. */
  role: "command" | "folder" | "path" | "value";
  /** The text, with each hidden character as a marker segment such as "⟨U+202E⟩". */
  segments: Array<{ text: string; marker: boolean }>;
  /** default: not given, this is what the tool uses; outside: outside the workspace, the tool will refuse it. */
  note: "default" | "outside" | null;
}

export interface HiddenCharacterView {
  /** "U+202E". */
  codePoint: string;
  kind: "bidirectional" | "invisible" | "control" | "space";
}

export interface ApprovalView {
  callId: string;
  toolName: string;
  toolDescription: string;
  risk: "read" | "write" | "execute";
  argumentsJson: string;
  canAllowForSession: boolean;
  /** Always set by the host; the card falls back to argumentsJson without it. */
  details?: ApprovalDetailView[];
  /** Characters in the arguments that cannot be seen as they are; with any, the call cannot be allowed for the session. */
  hiddenCharacters?: HiddenCharacterView[];
}

export interface AttachmentView {
  id: string;
  label: string;
  kind: "selection" | "file";
}

export interface ConversationListEntry {
  id: string;
  title: string;
  updatedAt: number;
  turnCount: number;
}

export interface SetupView {
  hasBaseUrl: boolean;
  hasApiKey: boolean;
  /** Where the relay is, for display (never the key). */
  baseUrl: string | null;
}

export interface SpendWarningView {
  estimatedInputTokens: number;
  thresholdTokens: number;
  text: string;
}

export interface PanelState {
  setup: SetupView;
  model: string | null;
  models: string[];
  modelsNote: string | null;
  conversations: ConversationListEntry[];
  conversationId: string | null;
  turns: TurnView[];
  busy: boolean;
  approvals: ApprovalView[];
  attachments: AttachmentView[];
  spendWarning: SpendWarningView | null;
  /** Totals of the conversation on screen, from the request ledger. */
  totals: { requests: number; inputTokens: number; outputTokens: number } | null;
  notice: string | null;
  /** Localized UI strings, keyed by their English text. */
  strings: Record<string, string>;
}

export type ToWebview =
  | { type: "state"; state: PanelState }
  /** Text appended to the answer of a streaming turn since the last message (batched per frame). */
  | { type: "answerDelta"; turnId: string; text: string }
  | { type: "focusInput" };

export type ToHost =
  | { type: "ready" }
  | { type: "send"; text: string }
  | { type: "stop" }
  | { type: "newChat" }
  | { type: "selectModel"; model: string }
  | { type: "refreshModels" }
  | { type: "approval"; callId: string; answer: "approve" | "deny" | "allow_session" }
  | { type: "retry"; turnId: string }
  | { type: "continue"; turnId: string }
  | { type: "regenerate"; turnId: string }
  | { type: "editAndResend"; turnId: string; text: string }
  | { type: "showBranch"; turnId: string; direction: -1 | 1 }
  | { type: "copyText"; text: string }
  | { type: "copyCurl"; turnId: string; receiptIndex: number }
  | { type: "openLink"; href: string }
  | { type: "insertCode"; code: string }
  | { type: "openCode"; code: string; language: string }
  /** Review `code` as the new content of a file the user picks (`file` is the block's hint, may be empty). */
  | { type: "applyCode"; code: string; language: string; file: string }
  | { type: "switchConversation"; conversationId: string }
  | { type: "renameConversation"; conversationId: string }
  | { type: "deleteConversation"; conversationId: string }
  | { type: "exportConversation"; conversationId: string }
  | { type: "attachSelection" }
  | { type: "attachFile" }
  | { type: "removeAttachment"; id: string }
  | { type: "confirmSend"; confirmed: boolean }
  | { type: "fix"; action: FixAction }
  | { type: "log"; level: "info" | "error"; message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isString = (value: unknown): value is string => typeof value === "string";
const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

const FIX_ACTIONS: readonly string[] = ["setApiKey", "openSettings", "selectModel", "checkConnection"];

/** Field checks per message type; anything else that crosses postMessage is ignored and logged. */
const TO_HOST_FIELDS: { [K in ToHost["type"]]: (message: Record<string, unknown>) => boolean } = {
  ready: () => true,
  send: (message) => isString(message.text),
  stop: () => true,
  newChat: () => true,
  selectModel: (message) => isString(message.model),
  refreshModels: () => true,
  approval: (message) => isString(message.callId) && (message.answer === "approve" || message.answer === "deny" || message.answer === "allow_session"),
  retry: (message) => isString(message.turnId),
  continue: (message) => isString(message.turnId),
  regenerate: (message) => isString(message.turnId),
  editAndResend: (message) => isString(message.turnId) && isString(message.text),
  showBranch: (message) => isString(message.turnId) && (message.direction === -1 || message.direction === 1),
  copyText: (message) => isString(message.text),
  copyCurl: (message) => isString(message.turnId) && isNumber(message.receiptIndex),
  openLink: (message) => isString(message.href),
  insertCode: (message) => isString(message.code),
  openCode: (message) => isString(message.code) && isString(message.language),
  applyCode: (message) => isString(message.code) && isString(message.language) && isString(message.file),
  switchConversation: (message) => isString(message.conversationId),
  renameConversation: (message) => isString(message.conversationId),
  deleteConversation: (message) => isString(message.conversationId),
  exportConversation: (message) => isString(message.conversationId),
  attachSelection: () => true,
  attachFile: () => true,
  removeAttachment: (message) => isString(message.id),
  confirmSend: (message) => typeof message.confirmed === "boolean",
  fix: (message) => isString(message.action) && FIX_ACTIONS.includes(message.action),
  log: (message) => (message.level === "info" || message.level === "error") && isString(message.message),
};

export function isToHost(value: unknown): value is ToHost {
  if (!isRecord(value) || !isString(value.type) || !Object.prototype.hasOwnProperty.call(TO_HOST_FIELDS, value.type)) return false;
  return TO_HOST_FIELDS[value.type as ToHost["type"]](value);
}

export function isToWebview(value: unknown): value is ToWebview {
  if (!isRecord(value) || !isString(value.type)) return false;
  switch (value.type) {
    case "state":
      return isRecord(value.state) && Array.isArray(value.state.turns) && isRecord(value.state.setup) && isRecord(value.state.strings);
    case "answerDelta":
      return isString(value.turnId) && isString(value.text);
    case "focusInput":
      return true;
    default:
      return false;
  }
}
