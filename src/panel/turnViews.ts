// The views of a turn and of a pending approval, as the panel shows them: what a turn's answer, receipts,
// tool calls and attachments look like on the page, and the limits of the images it may carry. Part of the
// panel's protocol (protocol.ts re-exports it), compiled on both sides.

/** An amount of money: billed by the relay, or estimated from prices (a turn's receipts, the panel's totals). */
export interface CostView {
  amount: number;
  /** ISO 4217 code, e.g. "USD". */
  currency: string;
  /** From prices (an estimate), not what the relay billed. */
  estimated: boolean;
  /** The estimate beside a billed figure, when both are known (receipts only). */
  estimatedAmount?: number | null;
}

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
export const FIX_ACTIONS = ["setApiKey", "openSettings", "selectModel", "checkConnection", "openConsole", "addRelay", "summarizeEarlierTurns", "reviewFiles", "modelSettings", "confirmChatCompletions"] as const;
export type FixAction = (typeof FIX_ACTIONS)[number];

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
  /** The relay that answered, when there are several (or the request named one). */
  relay?: string | null;
  /** What the request cost; null when unknown (tokens only, never 0). */
  cost?: CostView | null;
  /** Something the relay did that the user should know about this request (already localized); null when nothing. */
  note?: string | null;
  /** "chat": the request went over Chat Completions (the receipt says so); absent: the Responses interface. */
  protocol?: "chat";
  /** What the model's own settings (relayChat.modelSettings) put in the request; absent or null when nothing. */
  sentWith?: SentWithView | null;
}

/** The per-model settings a request went with, as sent (the output cap is the request's). */
export interface SentWithView {
  reasoningEffort?: string;
  temperature?: number;
  maxOutputTokens?: number;
  noTools?: true;
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
  /** It ran without a card: under this rule of relayChat.tools.autoApprove, or a session allowance. */
  approvedBy?: { kind: "rule"; rule: string } | { kind: "session" };
}

export type TurnAction = "retry" | "continue" | "resendWithoutImages" | "useChatCompletions";

/** The image types a message may carry (what the Responses `input_image` part takes from most models). */
export const IMAGE_MEDIA_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];
/** The guard's own cap on one image's base64 text (about 20 MB of bytes), whatever the settings say. */
export const MAX_IMAGE_BASE64_CHARS = 28 * 1024 * 1024;
/** At most this many turns are asked for in one `loadTurns`. */
export const MAX_TURNS_PER_LOAD = 50;
/** At most this many images go with one message. */
export const MAX_IMAGES_PER_MESSAGE = 10;

/** An image sent beside the message's text: its bytes, base64-encoded, after the webview downscaled it. */
export interface ImageUpload {
  mediaType: ImageMediaType;
  data: string;
}

/** The settings' limits, applied in the webview before sending (relayChat.images.*). */
export interface ImageLimitsView {
  /** Longer images are downscaled to this many pixels on their longest side. */
  maxLongestSide: number;
  /** An image still larger than this after downscaling is refused. */
  maxBytes: number;
}

export const MEGABYTE = 1024 * 1024;
/** The settings' defaults (documented in docs/settings.md and the manifest). */
export const DEFAULT_IMAGE_LIMITS: ImageLimitsView = { maxLongestSide: 2048, maxBytes: 5 * MEGABYTE };

/** What an attachment is: a file, the selection, or context from the editor (`#` menu and paperclip). */
export type AttachmentKind = "selection" | "file" | "problems" | "terminal" | "changes" | "folder" | "symbol";
export const ATTACHMENT_KINDS: readonly AttachmentKind[] = ["selection", "file", "problems", "terminal", "changes", "folder", "symbol"];

/** Context that went with a message (shown as a chip; its text went to the model inside the message). */
export interface AttachmentLabel {
  kind: AttachmentKind;
  label: string;
}

export interface TurnView {
  id: string;
  /** What the user typed (attached context is listed in `attachments`). */
  userText: string;
  attachments: AttachmentLabel[];
  /** Stored names of the images that went with the message (thumbnails: the page asks for each with `loadImage`); absent when none. */
  images?: string[];
  /** What the model was told before the message about the review of its proposed edits; absent when nothing. */
  reviewNote?: string;
  /** What a slash command did with the answer (/commit); absent when nothing. */
  commandNote?: string;
  /** For an incomplete answer: left out of what later messages send (the person may include it), or included. */
  sentLater?: "left_out" | "included";
  /** Markdown of the answer so far (completed text, or the partial text of an unfinished turn). */
  answerText: string;
  /** What the model declined to answer, in its own words (`refusal` parts); null when it refused nothing. */
  refusal: string | null;
  /** True while this turn's request is in flight; deltas then append to `answerText`. */
  streaming: boolean;
  outcome: OutcomeKind;
  outcomeLabel: string;
  /** A sentence naming the likely cause and what to do, for anything but completed. */
  explanation: string | null;
  fixes: FixAction[];
  /** The turn produced reasoning items; shown collapsed ("Reasoning"), never as answer text. */
  hasReasoning: boolean;
  /** The reasoning summaries the relay sent, if any (the reasoning itself stays opaque). */
  reasoningSummaries: string[];
  /** Output item kinds the panel does not render (kept in history, listed in the receipt). */
  otherItemKinds: string[];
  toolCalls: ToolCallView[];
  receipts: ReceiptView[];
  /**
   * Retry and Continue, where the outcome allows them; each sends a new, possibly billed request. The
   * webview offers them on the newest turn only, and not while another turn runs.
   */
  actions: TurnAction[];
  /** Other branches exist at this turn (edit or regenerate); `branchIndex` of `branchCount`. */
  branchIndex: number;
  branchCount: number;
  /** How many files the turn's tools changed (between its checkpoints); absent when it took none or changed none. */
  changedFiles?: number;
  /** The turn's files were restored to before it (Undo restore is offered instead of Restore). */
  restored?: boolean;
  /** The checkpoint before the turn's tools changed files failed (why): the turn has no Restore. */
  checkpointProblem?: string;
  /**
   * A summary of the branch down to this turn, stored here; when `text` is set it is in effect, and the
   * webview shows this turn and the ones before it collapsed under "Summarized". Absent when none was made.
   */
  summary?: SummaryView;
  /** Sent in Plan mode (read-only tools, asked for a plan); absent: Act. */
  mode?: "plan";
  /** A finished Plan turn, the last on screen: "Act on this plan" is offered. */
  actOnPlan?: boolean;
  /**
   * Sent without its bulk: an older turn of a long conversation, as it opens. `answerText` is empty and
   * `toolCalls`, `receipts` and `reasoningSummaries` are left out (everything else is there); the page holds
   * about this much room for the answer and asks for the whole turn with `loadTurns` as it comes near.
   * Absent: the whole turn.
   */
  brief?: BriefTurnSize;
}

/** The size of what a brief turn left out, so its placeholder takes about the room the whole turn will. */
export interface BriefTurnSize {
  answerChars: number;
  answerLines: number;
  toolCalls: number;
  receipts: number;
}

export interface SummaryView {
  /** The summary; null while its request runs or when it failed (its receipt says why). */
  text: string | null;
  replacedTurns: number;
  estimatedTokensBefore: number;
  estimatedTokensAfter: number | null;
  receipt: ReceiptView | null;
}

/** Why the panel offers Summarize earlier turns: the next request nears the window, or the relay refused one as too long. */
export interface CompactionOfferView {
  reason: "near_limit" | "too_long";
  /** How many turns the summary would replace. */
  turns: number;
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

/** A file change as a diff on its approval card (see src/tools/editPreview.ts). */
export interface ApprovalDiffView {
  path: Array<{ text: string; marker: boolean }>;
  createsFile: boolean;
  /** The replacements could not be placed in the file: each is shown alone (the tool will refuse the call). */
  unplaced: boolean;
  added: number;
  removed: number;
  /** 1-based first lines before and after; null for a replacement shown alone. */
  hunks: Array<{ originalLine: number | null; proposedLine: number | null; lines: Array<{ kind: "context" | "removed" | "added"; segments: Array<{ text: string; marker: boolean }> }> }>;
  /** Lines left off the card (the exact arguments have them). */
  omittedLines: number;
  /** The arguments the diff shows, left out of the card's list of arguments. */
  arguments: string[];
}

export interface HiddenCharacterView {
  /** "U+202E". */
  codePoint: string;
  kind: "bidirectional" | "invisible" | "control" | "space";
}

/**
 * Why an allow rule that names a command did not approve it; the webview words each kind (commandConcerns.ts).
 * The kinds repeat src/tools/commandSafety's ConcernKind, since the protocol imports nothing; the prompt broker
 * assigns one to the other, so the compiler keeps the two lists the same.
 */
export interface CommandConcernView {
  /** The rule as the person reads it: run_command allow "git diff*". */
  rule: string;
  kind:
    | "runsCode"
    | "loadsCode"
    | "writesFile"
    | "deletes"
    | "outsideWorkspace"
    | "unknownOption"
    | "unknownSubcommand"
    | "abbreviation"
    | "scriptArguments"
    | "runsScript"
    | "inputCommands"
    | "environment"
    | "programSpelling"
    | "otherUser"
    | "unknownProgram"
    | "unreadable"
    | "shellSyntax"
    | "notPlainText";
  /** The words it is about, as written ("--output=../x"). */
  subject: string;
}

export interface ApprovalView {
  callId: string;
  toolName: string;
  toolDescription: string;
  /** external: a tool of another extension or an MCP server (vscode.lm.tools); what it does is its own. */
  risk: "read" | "write" | "execute" | "external";
  /** Estimated input tokens of the request that sends the results back (the whole conversation again); null when unknown. */
  followUpInputTokens?: number | null;
  argumentsJson: string;
  canAllowForSession: boolean;
  /** Offer "Always allow this command" (command) or "Always allow <tool>" (tool); absent or null: not for this call. */
  alwaysAllow?: "command" | "tool" | null;
  /** The first read-only card: offer once to let read-only tools run without asking from now on. */
  offerReadOnlyDefault?: boolean;
  /** The deny rule of relayChat.tools.autoApprove the command matched, shown on the card; absent or null: none. */
  deniedByRule?: string | null;
  /** Why the allow rules that name the command did not approve it; absent or empty: no rule names it. */
  commandConcerns?: CommandConcernView[];
  /** Always set by the host; the card falls back to argumentsJson without it. */
  details?: ApprovalDetailView[];
  /** Characters in the arguments that cannot be seen as they are; with any, the call cannot be allowed for the session. */
  hiddenCharacters?: HiddenCharacterView[];
  /** propose_edit: the change as a diff; absent or null for other calls. */
  diff?: ApprovalDiffView | null;
}
