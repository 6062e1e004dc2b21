// The views of the panel's fields other than its turns and approvals: the message box and what is attached,
// the header and conversation list, setup, totals and cost, the context meter, rules, relays, the task list
// and the slash commands. Part of the panel's protocol (protocol.ts re-exports it), compiled on both sides.
import type { AttachmentKind, CompactionOfferView, CostView, ImageLimitsView } from "./turnViews";

export interface AttachmentView {
  id: string;
  label: string;
  kind: AttachmentKind;
  /** Said in the chip's tooltip: what was cut, or why there is nothing to read (a terminal without shell integration). */
  note?: string;
  /** A relay key was found in its text and replaced with [REDACTED] before anything was sent or kept. */
  redacted?: true;
}

/** A chip whose text the page asks for: attached to the next message, the active editor's file, or the `index`-th of a sent message. */
export type AttachmentTarget = { place: "pending"; id: string } | { place: "activeFile" } | { place: "sent"; turnId: string; index: number };

/** An opened chip: exactly the text it adds to the request, and about how many tokens that is. */
export interface AttachmentTextView {
  kind: AttachmentKind;
  label: string;
  /** The attachment's block, byte for byte as the request's user message carries it. */
  text: string;
  /** Estimated like the context meter's figures: about four characters a token. */
  tokens: number;
  /** What was cut, or why there is nothing to read (as the chip's tooltip says). */
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
  /**
   * Requests the relay reported usage for; with none, the title line says "tokens unknown" as the receipts do
   * (a request refused with an HTTP error is not "without usage", since it cost nothing, but it reported none).
   */
  requestsWithUsage: number;
  /** What the conversation cost; null when no request's cost is known (never shown as 0). */
  cost?: CostView | null;
  /** Requests whose cost is unknown: with any, `cost` is a lower bound. */
  requestsWithoutCost?: number;
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
  /** A relay key was found in it and replaced with [REDACTED] in what is sent. */
  redacted?: true;
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
  /** The check-up found this model needs Chat Completions: the confirmation is offered (above the composer); absent or null: none. */
  chatCompletionsOffer?: { relay: string; model: string } | null;
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
  /** A prompt file in the place of the built-in of its name. */
  replacesBuiltin?: boolean;
  /** A built-in that keeps its name: the prompt file of that name (shown as its source) is not used. */
  ignoredFile?: string;
  /** About how many tokens its prompt adds to what the model is told (the context meter counts it while the command is in the box). */
  promptTokens?: number;
}
