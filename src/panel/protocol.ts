// This file is longer than 400 lines because it is the whole protocol of the panel with its runtime
// guards: one file, because both the host and the webview compile it.
// The messages between the extension host and the chat webview. This file imports nothing: it is
// compiled on both sides (media/tsconfig.json includes it), so the compiler guards both ends, and every
// message that crosses postMessage is checked by the guards below before it is used.
//
// The flow: the webview posts `ready`; the host answers with one `snapshot` (the whole state and the UI
// strings, sent once per page load); after that, changes travel as `patch` messages (a turn added or
// changed, a receipt, the pending approvals, header fields) and streamed text as `answerDelta`.

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
export type FixAction = "setApiKey" | "openSettings" | "selectModel" | "checkConnection" | "openConsole" | "addRelay" | "summarizeEarlierTurns" | "reviewFiles" | "modelSettings";

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
/** The settings' defaults (documented in the README and the manifest). */
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
  /** Always set by the host; the card falls back to argumentsJson without it. */
  details?: ApprovalDetailView[];
  /** Characters in the arguments that cannot be seen as they are; with any, the call cannot be allowed for the session. */
  hiddenCharacters?: HiddenCharacterView[];
  /** propose_edit: the change as a diff; absent or null for other calls. */
  diff?: ApprovalDiffView | null;
}

export interface AttachmentView {
  id: string;
  label: string;
  kind: AttachmentKind;
  /** Said in the chip's tooltip: what was cut, or why there is nothing to read (a terminal without shell integration). */
  note?: string;
}

export interface ConversationListEntry {
  id: string;
  title: string;
  updatedAt: number;
  turnCount: number;
  model: string;
}

export interface SetupView {
  hasBaseUrl: boolean;
  hasApiKey: boolean;
  /** Where the relay is, for display (never the key). */
  baseUrl: string | null;
  /** Why the address set is not used (typed without http://, say), naming the setting; null when none is set. */
  baseUrlProblem?: string | null;
}

export interface SpendWarningView {
  estimatedInputTokens: number;
  thresholdTokens: number;
  text: string;
}

/** What the conversation's requests cost so far. Token sums count only requests whose usage was reported. */
export interface TotalsView {
  requests: number;
  inputTokens: number;
  cachedTokens: number;
  outputTokens: number;
  /** Requests the relay reported no usage for: their tokens are unknown, not zero. */
  requestsWithoutUsage: number;
  /** What the conversation cost; null when no request's cost is known (never shown as 0). */
  cost?: CostView | null;
  /** Requests whose cost is unknown: with any, `cost` is a lower bound. */
  requestsWithoutCost?: number;
}

/** An amount of money: billed by the relay, or estimated from prices. */
export interface CostView {
  amount: number;
  /** ISO 4217 code, e.g. "USD". */
  currency: string;
  /** From prices (an estimate), not what the relay billed. */
  estimated: boolean;
  /** The estimate beside a billed figure, when both are known (receipts only). */
  estimatedAmount?: number | null;
}

/** The estimated input of the next send against the model's context window (when the setting gives one). */
export interface ContextMeterView {
  /** History and attachments; the webview adds the draft and the images it holds. */
  estimatedTokens: number;
  /** The estimate for each image waiting in the message box (src/chat/spendGuard.ts IMAGE_TOKEN_ESTIMATE). */
  tokensPerImage: number;
  windowTokens: number | null;
}

/** A file the `#` picker offers. */
export interface FileMatchView {
  /** Workspace-relative path, "/"-separated (with the folder name first when several are open); a symbol's is "path:line". */
  path: string;
  /** Absent: a file. */
  kind?: "folder" | "symbol";
  /** A symbol's name and what it is ("class", "function"). */
  name?: string;
  detail?: string;
}

/** Context the `#` menu and the paperclip offer beside files and the selection. */
export type ContextSource = "problems" | "problemsInFile" | "terminal" | "changes" | "folder" | "symbol";
export const CONTEXT_SOURCES: readonly ContextSource[] = ["problems", "problemsInFile", "terminal", "changes", "folder", "symbol"];

/** One project rules file that would go with the next message (the Rules chip's list). */
export interface RuleFileView {
  /** `folder/path`: what the host is told when it is switched off or on. */
  id: string;
  /** As "What the model is told" names it: the relative path (with the folder when several are open). */
  source: string;
  /** Estimated tokens it adds; 0 when switched off or left out. */
  tokens: number;
  /** Switched off for this conversation. */
  off: boolean;
  /** Cut to the size limit: how much of it is sent; null when sent whole. */
  cut: { keptChars: number; totalChars: number } | null;
  /** Left out: the rules' total limit was reached before it. */
  left: boolean;
}

/** The Rules chip: the rules files for the next message and the whole instruction estimate. */
export interface RulesView {
  files: RuleFileView[];
  /** Everything the model is told with the next message (base, the person's, rules), estimated. */
  instructionTokens: number;
  /** The workspace is not trusted and its rules files are not read until the person allows them. */
  untrusted: boolean;
}

/** What one relay lists, for the model picker's groups (the choice reads "gpt-4o-mini · Cheap relay"). */
export interface RelayModelsView {
  relay: string;
  models: string[];
  /** The model remembered for this relay when the relay no longer lists it; null otherwise. */
  unlisted: string | null;
  /** The models whose requests go over Chat Completions (set by the person, or said by the relay's list); absent: none. */
  chatModels?: string[];
}

/** Plan: the model gets read-only tools and is asked for a plan. Act: every tool. */
export type ChatModeView = "plan" | "act";

/** One item of the task list the model keeps (update_tasks), pinned above the message box. */
export interface TaskItemView {
  text: string;
  status: "pending" | "in_progress" | "done";
}

/** Everything the panel shows except the turns and the pending approvals, which change on their own. */
export interface PanelFields {
  /** The conversation's title; never blank (the first message names a new conversation at once). */
  title: string;
  setup: SetupView;
  model: string | null;
  /** The active relay's models. */
  models: string[];
  modelsNote: string | null;
  /** The relay the next request goes to; null when none is set. */
  relay: string | null;
  /** Every relay's models, in the order of the settings; with one relay the picker shows no groups. */
  relayModels: RelayModelsView[];
  conversations: ConversationListEntry[];
  conversationId: string | null;
  busy: boolean;
  attachments: AttachmentView[];
  /** The active editor's selection, offered as a one-click attachment. */
  selectionOffer: { label: string } | null;
  /** The active editor's file, sent with the next message unless the user removes it. */
  activeFileOffer: { label: string } | null;
  context: ContextMeterView | null;
  /** The Rules chip; null when there are no rules files and nothing to say about them. */
  rules?: RulesView | null;
  /** Summarize earlier turns is offered (above the composer); null when it is not. */
  compactionOffer: CompactionOfferView | null;
  /** Files whose proposed edits wait for Keep or Undo in the editor (0 or absent: none). */
  filesToReview?: number;
  imageLimits: ImageLimitsView;
  spendWarning: SpendWarningView | null;
  /** Totals of the conversation on screen: every request of every branch and summary (src/chat/conversationTotals.ts). */
  totals: TotalsView | null;
  /** "Balance left on Cheap relay: $1.20." for the active relay, where it tells it; null otherwise. */
  balance?: string | null;
  notice: string | null;
  /** The Plan / Act switch for the next message; absent: Act. */
  mode?: ChatModeView;
  /** The conversation's task list; absent or empty: none is shown. */
  tasks?: TaskItemView[];
  /** What `/` lists in the message box: built-ins and prompt files (absent: none). */
  slashCommands?: SlashCommandView[];
}

/** One command of the `/` menu (src/instructions/slashCommands.ts). */
export interface SlashCommandView {
  /** Without the slash. */
  name: string;
  description: string;
  argumentHint: string;
  origin: "builtin" | "workspace" | "user";
  /** About how many tokens its prompt adds to what the model is told (the context meter counts it while the command is in the box). */
  promptTokens?: number;
}

export interface PanelState extends PanelFields {
  turns: TurnView[];
  approvals: ApprovalView[];
}

/** One change after the snapshot. A patch message carries the changes of one moment, in this order. */
export type PanelChange =
  /** Header and composer fields that changed (only those). */
  | { kind: "fields"; fields: Partial<PanelFields> }
  /** A turn added or changed: the whole turn. For a streaming turn, its text so far. */
  | { kind: "turn"; turn: TurnView }
  /** The turns on screen, in order; turns not listed are gone. */
  | { kind: "turnOrder"; turnIds: string[] }
  /** A request of a turn ended: its receipt, at its position among the turn's receipts. */
  | { kind: "receipt"; turnId: string; index: number; receipt: ReceiptView }
  /** The tool calls waiting for the user. */
  | { kind: "approvals"; approvals: ApprovalView[] };

export type ToWebview =
  /**
   * The whole state, after `ready`. `strings` are the localized UI strings, keyed by their English text;
   * `locale` is VS Code's display language (for dates and plurals).
   */
  | { type: "snapshot"; state: PanelState; strings: Record<string, string>; locale: string }
  | { type: "patch"; changes: PanelChange[] }
  /** Text appended to the answer of a streaming turn since the last message (batched per frame). */
  | { type: "answerDelta"; turnId: string; text: string }
  | { type: "focusInput" }
  /** The view's History action. */
  | { type: "showHistory" }
  /** Files for the `#` picker, best match first, for the query the webview asked about. */
  | { type: "fileMatches"; query: string; files: FileMatchView[] }
  /** The answer to `findFileReferences`: of the `checked` paths, `files` are workspace files (and become links). */
  | { type: "fileReferences"; checked: string[]; files: string[] }
  /** The answer to `loadImage`: the stored image as a data URL, null when its file is missing. */
  | { type: "image"; name: string; dataUrl: string | null };

export type ToHost =
  | { type: "ready" }
  /** The first snapshot is on screen; `sinceLoadMs` is the page's own clock (performance.now()). */
  | { type: "rendered"; sinceLoadMs: number }
  | { type: "send"; text: string; images?: ImageUpload[] }
  | { type: "stop" }
  | { type: "newChat" }
  /** A model, on `relay` when given (which then becomes the relay the panel sends to). */
  | { type: "selectModel"; model: string; relay?: string }
  | { type: "refreshModels" }
  | { type: "approval"; callId: string; answer: "approve" | "deny" | "allow_session" | "always_allow" | "read_only_always" }
  | { type: "retry"; turnId: string }
  /** Save Chat Completions for the model the turn failed on, and send its message again (one new request). */
  | { type: "useChatCompletions"; turnId: string }
  | { type: "continue"; turnId: string }
  /** An incomplete turn goes with later messages after all (its message and partial answer). */
  | { type: "includeTurn"; turnId: string }
  /** The turn's message again, as a new version without its images (the model refused them). */
  | { type: "resendWithoutImages"; turnId: string }
  | { type: "regenerate"; turnId: string }
  | { type: "editAndResend"; turnId: string; text: string }
  | { type: "showBranch"; turnId: string; direction: -1 | 1 }
  | { type: "copyText"; text: string }
  /** "Copy as curl" for one receipt: the request at `receiptIndex` of the turn. */
  | { type: "copyCurl"; turnId: string; receiptIndex: number }
  /** Review the files the turn changed, or put them back as they were before it. */
  | { type: "turnChanges"; turnId: string; action: "review" | "restore" | "undoRestore" }
  | { type: "openLink"; href: string }
  /** File names and paths a finished answer mentions: which are files of the workspace? (Only the host can tell.) */
  | { type: "findFileReferences"; paths: string[] }
  /** A file an answer mentions, to open in the editor (at `line`, 1-based, when the answer gave one). */
  | { type: "openFileReference"; path: string; line: number | null }
  | { type: "insertCode"; code: string }
  | { type: "openCode"; code: string; language: string }
  /** Review `code` as the new content of a file the user picks (`file` is the block's hint, may be empty). */
  | { type: "applyCode"; code: string; language: string; file: string; turnId: string }
  | { type: "switchConversation"; conversationId: string }
  /**
   * The whole views of turns sent brief (`TurnView.brief`) of the conversation on screen; they come as
   * `turn` changes of a patch. A request naming another conversation (the page switched meanwhile) is ignored.
   */
  | { type: "loadTurns"; conversationId: string; turnIds: string[] }
  | { type: "renameConversation"; conversationId: string }
  | { type: "deleteConversation"; conversationId: string }
  | { type: "exportConversation"; conversationId: string }
  | { type: "attachSelection" }
  /** The paperclip: the host asks what to attach. */
  | { type: "attachFile" }
  /** "What the model is told": the whole instruction text of the next message, in an editor. */
  /** `draft`: the message box's text, so a slash command it starts with is shown too. */
  | { type: "showInstructions"; draft?: string }
  /** Switches a project rules file off (or back on) for the conversation on screen. */
  | { type: "setRuleFile"; id: string; on: boolean }
  /** A file picked with `#`. */
  | { type: "attachPath"; path: string }
  /** The `#` picker's query (the text after `#`). */
  | { type: "findFiles"; query: string }
  /** Context picked with `#`: Problems, Terminal, Changes, a folder (`path`) or a symbol (`name` at `path`, "file:line"). */
  | { type: "attachContext"; source: ContextSource; path?: string; name?: string }
  | { type: "removeAttachment"; id: string }
  /** The active editor's file is not to go with the messages (until another editor is active). */
  | { type: "removeActiveFile" }
  /** The data of a sent message's image, by its stored name (for its thumbnail). */
  | { type: "loadImage"; name: string }
  | { type: "confirmSend"; confirmed: boolean }
  /** The Plan / Act switch. */
  | { type: "setMode"; mode: ChatModeView }
  /** Starts the next turn in Act mode on the plan a finished Plan turn proposed. */
  | { type: "actOnPlan"; turnId: string }
  /** The person ticked (or unticked) or removed the item at `index`, whose text was `text`. */
  | { type: "editTask"; action: "toggle" | "remove"; index: number; text: string }
  | { type: "fix"; action: FixAction }
  | { type: "log"; level: "info" | "error"; message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isString = (value: unknown): value is string => typeof value === "string";
const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const isIndex = (value: unknown): value is number => isNumber(value) && Number.isInteger(value) && value >= 0;
const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const isImageList = (value: unknown): value is ImageUpload[] =>
  Array.isArray(value) &&
  value.length <= MAX_IMAGES_PER_MESSAGE &&
  value.every(
    (image) =>
      isRecord(image) &&
      (IMAGE_MEDIA_TYPES as readonly unknown[]).includes(image.mediaType) &&
      isString(image.data) &&
      image.data.length > 0 &&
      image.data.length <= MAX_IMAGE_BASE64_CHARS &&
      BASE64.test(image.data),
  );

const FIX_ACTIONS: readonly string[] = ["setApiKey", "openSettings", "selectModel", "checkConnection", "openConsole", "addRelay", "summarizeEarlierTurns", "reviewFiles", "modelSettings"];

/** Field checks per message type; anything else that crosses postMessage is ignored and logged. */
const TO_HOST_FIELDS: { [K in ToHost["type"]]: (message: Record<string, unknown>) => boolean } = {
  ready: () => true,
  rendered: (message) => isNumber(message.sinceLoadMs),
  send: (message) => isString(message.text) && (message.images === undefined || isImageList(message.images)),
  stop: () => true,
  newChat: () => true,
  selectModel: (message) => isString(message.model) && (message.relay === undefined || isString(message.relay)),
  refreshModels: () => true,
  approval: (message) => isString(message.callId) && (message.answer === "approve" || message.answer === "deny" || message.answer === "allow_session" || message.answer === "always_allow" || message.answer === "read_only_always"),
  retry: (message) => isString(message.turnId),
  useChatCompletions: (message) => isString(message.turnId),
  continue: (message) => isString(message.turnId),
  includeTurn: (message) => isString(message.turnId),
  resendWithoutImages: (message) => isString(message.turnId),
  regenerate: (message) => isString(message.turnId),
  editAndResend: (message) => isString(message.turnId) && isString(message.text),
  showBranch: (message) => isString(message.turnId) && (message.direction === -1 || message.direction === 1),
  copyText: (message) => isString(message.text),
  copyCurl: (message) => isString(message.turnId) && isIndex(message.receiptIndex),
  turnChanges: (message) => isString(message.turnId) && (message.action === "review" || message.action === "restore" || message.action === "undoRestore"),
  openLink: (message) => isString(message.href),
  findFileReferences: (message) => isStringList(message.paths),
  openFileReference: (message) => isString(message.path) && (message.line === null || (isIndex(message.line) && message.line > 0)),
  insertCode: (message) => isString(message.code),
  openCode: (message) => isString(message.code) && isString(message.language),
  applyCode: (message) => isString(message.code) && isString(message.language) && isString(message.file) && isString(message.turnId),
  switchConversation: (message) => isString(message.conversationId),
  loadTurns: (message) => isString(message.conversationId) && isStringList(message.turnIds) && message.turnIds.length <= MAX_TURNS_PER_LOAD,
  renameConversation: (message) => isString(message.conversationId),
  deleteConversation: (message) => isString(message.conversationId),
  exportConversation: (message) => isString(message.conversationId),
  attachSelection: () => true,
  attachFile: () => true,
  showInstructions: (message) => message.draft === undefined || isString(message.draft),
  setRuleFile: (message) => isString(message.id) && message.id.length > 0 && typeof message.on === "boolean",
  attachPath: (message) => isString(message.path),
  findFiles: (message) => isString(message.query),
  attachContext: (message) =>
    CONTEXT_SOURCES.includes(message.source as ContextSource) && (message.path === undefined || isString(message.path)) && (message.name === undefined || isString(message.name)),
  removeAttachment: (message) => isString(message.id),
  removeActiveFile: () => true,
  loadImage: (message) => isString(message.name),
  confirmSend: (message) => typeof message.confirmed === "boolean",
  setMode: (message) => message.mode === "plan" || message.mode === "act",
  actOnPlan: (message) => isString(message.turnId),
  editTask: (message) => (message.action === "toggle" || message.action === "remove") && isIndex(message.index) && isString(message.text),
  fix: (message) => isString(message.action) && FIX_ACTIONS.includes(message.action),
  log: (message) => (message.level === "info" || message.level === "error") && isString(message.message),
};

export function isToHost(value: unknown): value is ToHost {
  if (!isRecord(value) || !isString(value.type) || !Object.prototype.hasOwnProperty.call(TO_HOST_FIELDS, value.type)) return false;
  return TO_HOST_FIELDS[value.type as ToHost["type"]](value);
}

// The webview checks the shape of what it is about to index into; the contents of a turn are rendered as
// text (never as markup), so a wrong value inside shows wrong, it cannot run.
function isTurnView(value: unknown): value is TurnView {
  return (
    isRecord(value) &&
    isString(value.id) &&
    isString(value.answerText) &&
    Array.isArray(value.receipts) &&
    Array.isArray(value.toolCalls) &&
    Array.isArray(value.actions) &&
    Array.isArray(value.attachments) &&
    Array.isArray(value.reasoningSummaries)
  );
}

function isPanelChange(value: unknown): value is PanelChange {
  if (!isRecord(value)) return false;
  switch (value.kind) {
    case "fields":
      return isRecord(value.fields);
    case "turn":
      return isTurnView(value.turn);
    case "turnOrder":
      return isStringList(value.turnIds);
    case "receipt":
      return isString(value.turnId) && isIndex(value.index) && isRecord(value.receipt);
    case "approvals":
      return Array.isArray(value.approvals) && value.approvals.every(isRecord);
    default:
      return false;
  }
}

export function isToWebview(value: unknown): value is ToWebview {
  if (!isRecord(value) || !isString(value.type)) return false;
  switch (value.type) {
    case "snapshot":
      return (
        isString(value.locale) &&
        isRecord(value.state) &&
        Array.isArray(value.state.turns) &&
        value.state.turns.every(isTurnView) &&
        Array.isArray(value.state.approvals) &&
        isRecord(value.state.setup) &&
        isRecord(value.strings)
      );
    case "patch":
      return Array.isArray(value.changes) && value.changes.every(isPanelChange);
    case "answerDelta":
      return isString(value.turnId) && isString(value.text);
    case "focusInput":
    case "showHistory":
      return true;
    case "fileMatches":
      return isString(value.query) && Array.isArray(value.files) && value.files.every((file) => isRecord(file) && isString(file.path));
    case "fileReferences":
      return isStringList(value.checked) && isStringList(value.files);
    case "image":
      return isString(value.name) && (value.dataUrl === null || isString(value.dataUrl));
    default:
      return false;
  }
}
