// The messages between the extension host and the chat webview. It and its neighbours import nothing
// else: they are compiled on both sides (media/tsconfig.json includes them), so the compiler guards both
// ends. The views the messages carry are in turnViews.ts (turns, approvals) and panelFieldViews.ts (the
// panel's other fields), re-exported here; every message that crosses postMessage is checked by
// protocolGuards.ts before it is used.
//
// The flow: the webview posts `ready`; the host answers with one `snapshot` (the whole state and the UI
// strings, sent once per page load); after that, changes travel as `patch` messages (a turn added or
// changed, a receipt, the pending approvals, header fields) and streamed text as `answerDelta`.

export * from "./panelFieldViews";
export * from "./turnViews";
import type { AttachmentTarget, AttachmentTextView, ChatModeView, ContextSource, FileMatchView, PanelFields } from "./panelFieldViews";
import type { ApprovalView, FixAction, ImageUpload, ReceiptView, TurnView } from "./turnViews";

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
  /** How long the turn's request has waited for content, in seconds (from a few on); null: it is not waiting (contentWait.ts). */
  | { type: "contentWait"; turnId: string; seconds: number | null }
  | { type: "focusInput" }
  /** The view's History action. */
  | { type: "showHistory" }
  /** Files for the `#` picker, best match first, for the query the webview asked about. */
  | { type: "fileMatches"; query: string; files: FileMatchView[] }
  /** The answer to `findFileReferences`: of the `checked` paths, `files` are workspace files (and become links). */
  | { type: "fileReferences"; checked: string[]; files: string[] }
  /** The answer to `loadImage`: the stored image as a data URL, null when its file is missing. */
  | { type: "image"; name: string; dataUrl: string | null }
  /** The answer to `openAttachment`: the chip's text as the request carries it; null when the chip is gone. */
  | { type: "attachmentText"; target: AttachmentTarget; attachment: AttachmentTextView | null };

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
  /** The message box starts with `/` (its text), or no longer does (""): the command's prompt and tools go with the next request. */
  | { type: "draftCommand"; text: string }
  /** Switches a project rules file off (or back on) for the conversation on screen. */
  | { type: "setRuleFile"; id: string; on: boolean }
  /** A file picked with `#`. */
  | { type: "attachPath"; path: string }
  /** The `#` picker's query (the text after `#`). */
  | { type: "findFiles"; query: string }
  /** Context picked with `#`: Problems, Terminal, Changes, a folder (`path`) or a symbol (`name` at `path`, "file:line"). */
  | { type: "attachContext"; source: ContextSource; path?: string; name?: string }
  | { type: "removeAttachment"; id: string }
  /** A chip was opened: what exactly does it add to the request? */
  | { type: "openAttachment"; target: AttachmentTarget }
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
  /** `turnId`: the turn whose fix button it is (Model settings… then opens at the model that turn used). */
  | { type: "fix"; action: FixAction; turnId?: string }
  | { type: "log"; level: "info" | "error"; message: string };
