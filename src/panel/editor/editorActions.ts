import * as l10n from "@vscode/l10n";
import type { Conversation } from "../../chat/conversation";
import { findTurn } from "../../chat/conversation";
import type { ImageStore } from "../../chat/imageStore";
import type { ChatTools } from "../../chat/toolRound";
import { attachmentTextOf } from "../context/attachmentText";
import { exactNamesFirst } from "../context/contextMatchOrder";
import { curlForReceipt } from "./curlCommand";
import { rejectedSettingOf } from "../turns/turnFixes";
import { AttachmentList, limitedAttachment } from "../context/messageAttachments";
import type { Attachment, NewAttachment } from "../context/messageAttachments";
import { relayKeys } from "../panelServices";
import type { EditorFix, EditorServices, FixTarget, RelayAccess, WorkspaceContextSource } from "../panelServices";
import { removeKeys } from "../../relay/redact";
import type { AttachmentTarget, AttachmentTextView, ContextSource, FileMatchView } from "../protocol";
import type { FileReferenceResolver } from "./fileReferences";
import type { WorkspaceFiles } from "../context/workspaceFiles";

/** How long the `#` list waits for the workspace symbols before it shows the files without them. */
const SYMBOL_WAIT_MS = 500;

/** An answer with more file names than this gets links for the first ones only. */
const MAX_FILE_REFERENCES_PER_QUESTION = 200;

// What the panel asks of the editor around a conversation: copying, links from answers, code into an
// editor, "Copy as curl", and the context attached to the next message. The editor does the work
// (EditorServices); the checks and the wording are here.

export interface EditorActionsContext {
  editor: EditorServices;
  relay: RelayAccess;
  conversation(): Conversation | null;
  /** Where the conversation's images are stored: a copied curl command carries them as sent. */
  images: ImageStore;
  tools(): ChatTools | null;
  /** A sentence for the user, shown in the panel. */
  notify(notice: string): void;
  /** The attachments or the selection offer changed. */
  attachmentsChanged(): void;
  /** The workspace's files, for `#`; null where there is no file system folder. */
  files: WorkspaceFiles | null;
  /** Problems, the terminal, git changes and symbols; null where the editor offers none (tests, benchmarks). */
  workspaceContext?: WorkspaceContextSource | null;
  /** Answers the webview's `#` query. */
  postFileMatches(query: string, files: FileMatchView[]): void;
  /** Tells which file names and paths of answers are workspace files; null where no folder is open on disk. */
  fileReferences: FileReferenceResolver | null;
  /** Answers the webview's `findFileReferences`. */
  postFileReferences(checked: string[], files: string[]): void;
  /** Answers the webview's `openAttachment`. */
  postAttachmentText(target: AttachmentTarget, attachment: AttachmentTextView | null): void;
}

export class EditorActions {
  /** What goes with the next message; the relay keys are taken out of each one's text as it is attached. */
  readonly attachments = new AttachmentList((text) => removeKeys(text, relayKeys(this.context.relay)));
  /** The active editor's selection, offered as a chip; null when nothing is selected. */
  selectionOffer: { label: string } | null = null;
  /** The active editor's file (relayChat.context.activeEditor), sent with each message unless removed. */
  private activeFileLabel: string | null = null;
  /** The active file the user removed: it stays out until another editor becomes the active one. */
  private removedActiveFile: string | null = null;

  constructor(private readonly context: EditorActionsContext) {}

  copyText(text: string): Promise<void> {
    return this.context.editor.copyToClipboard(text);
  }

  async copyCurl(turnId: string, receiptIndex: number): Promise<void> {
    const client = this.context.relay.current();
    const conversation = this.context.conversation();
    let command: string | null;
    try {
      command = client && conversation ? await curlForReceipt(client.root, conversation, turnId, receiptIndex, this.context.images) : null;
    } catch (error) {
      return this.context.notify((error as Error).message);
    }
    if (command === null) return;
    await this.context.editor.copyToClipboard(command);
    this.context.editor.showInformation(
      l10n.t("Copied a curl command for this request. It reads the key from $RELAY_CHAT_API_KEY; running it sends a new, possibly billed request."),
    );
  }

  /** Links from answers open outside the editor, http(s) only, after the user agrees. */
  async openLink(href: string): Promise<void> {
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      return;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return this.context.notify(l10n.t("Only http and https links open from the chat."));
    await this.context.editor.confirmAndOpenLink(url.toString());
  }

  async findFileReferences(paths: readonly string[]): Promise<void> {
    const checked = [...new Set(paths)].slice(0, MAX_FILE_REFERENCES_PER_QUESTION);
    const files = this.context.fileReferences === null ? [] : await this.context.fileReferences.existing(checked);
    this.context.postFileReferences(checked, files);
  }

  /** A file an answer mentions: checked again here (the webview's word is not trusted), then opened. */
  async openFileReference(shownPath: string, line: number | null): Promise<void> {
    const file = this.context.fileReferences === null ? null : await this.context.fileReferences.resolve(shownPath);
    if (file === null) return this.context.notify(l10n.t('"{0}" is not a file of this workspace, so it was not opened.', shownPath));
    await this.context.editor.openFile(file, line);
  }

  async insertCode(code: string): Promise<void> {
    if (!(await this.context.editor.insertCode(code))) this.context.notify(l10n.t("Open an editor to insert the code into."));
  }

  openCode(code: string, language: string): Promise<void> {
    return this.context.editor.openCode(code, language);
  }

  applyCode(code: string, fileHint: string): Promise<void> {
    return this.context.editor.applyCode(code, fileHint);
  }

  /** A fix button of an error: the command that repairs the likely cause (Model settings… at the turn's relay and model). */
  runFix(action: EditorFix, turnId?: string): Promise<void> {
    return this.context.editor.runFix(action, action === "modelSettings" && turnId !== undefined ? this.fixTargetOf(turnId) : undefined);
  }

  private fixTargetOf(turnId: string): FixTarget | undefined {
    const conversation = this.context.conversation();
    const turn = conversation ? findTurn(conversation, turnId) : null;
    const request = turn?.requests[turn.requests.length - 1];
    const relay = request?.relay ?? this.context.relay.activeRelay;
    if (!turn || !request || relay === null) return undefined;
    const field = rejectedSettingOf(turn.outcome)?.field;
    return { relay, model: request.model, ...(field ? { field } : {}) };
  }

  attachSelection(): boolean {
    return this.attach(this.context.editor.activeSelection(), () => l10n.t("Select some text in an editor first."));
  }

  /** The paperclip: the editor asks what to attach (files, the active file, the selection). */
  async pickAttachment(): Promise<void> {
    const picked = await this.context.editor.pickAttachment();
    if (picked !== null) this.attach(picked, () => "");
  }

  /** The editor's selection changed; `label` names it ("src/a.ts:3-9"), null when there is none. */
  offerSelection(label: string | null): void {
    const offer = label === null ? null : { label };
    if (offer?.label === this.selectionOffer?.label) return;
    this.selectionOffer = offer;
    this.context.attachmentsChanged();
  }

  /** The active editor changed; `label` names its file, null when it has none (or the setting is off). */
  offerActiveFile(label: string | null): void {
    if (label === this.activeFileLabel) return;
    this.activeFileLabel = label;
    this.removedActiveFile = null;
    this.context.attachmentsChanged();
  }

  /** The active editor's file as the composer shows it; null when there is none or the user removed it. */
  get activeFileOffer(): { label: string } | null {
    const label = this.activeFileLabel;
    return label === null || label === this.removedActiveFile ? null : { label };
  }

  removeActiveFile(): void {
    this.removedActiveFile = this.activeFileLabel;
    this.context.attachmentsChanged();
  }

  /** What goes with the message being sent: the attachments, then the offered active file as it reads now. */
  takeAttachments(): Attachment[] {
    const file = this.offeredActiveFile();
    if (file !== null) this.attachments.add(file);
    return this.attachments.take();
  }

  /** All text the next message would carry, for the estimate of its size. */
  pendingText(): string {
    const file = this.offeredActiveFile();
    return file === null ? this.attachments.text : `${this.attachments.text}\n${limitedAttachment(file).text}`;
  }

  /** A chip was opened: the exact text it adds to the request (before or after sending), or null when it is gone. */
  openAttachment(target: AttachmentTarget): void {
    const attachment = attachmentTextOf(target, {
      pending: (id) => this.attachments.get(id),
      activeFile: () => this.offeredActiveFile(),
      conversation: () => this.context.conversation(),
    });
    this.context.postAttachmentText(target, attachment);
  }

  /** The editor's file, when it is still the one offered (the editor may have moved on since). */
  private offeredActiveFile(): NewAttachment | null {
    const offer = this.activeFileOffer;
    if (offer === null) return null;
    const file = this.context.editor.activeFile();
    return file?.label === offer.label ? file : null;
  }

  /**
   * The `#` query's matches: a few folders, the files, then a few workspace symbols (asked for from two characters
   * on), a name typed whole first (contextMatchOrder.ts). A language server still starting can take seconds for
   * symbols; the files do not wait for it that long.
   */
  async findFiles(query: string): Promise<void> {
    const files = this.context.files;
    const symbols = query.trim().length >= 2 && this.context.workspaceContext ? withinTime(this.context.workspaceContext.symbols(query.trim()), SYMBOL_WAIT_MS) : Promise.resolve([]);
    const [folders, matches, found] = await Promise.all([files ? files.folders(query, 3) : [], files ? files.search(query) : [], symbols]);
    this.context.postFileMatches(query, exactNamesFirst(query, [...folders, ...matches, ...found]));
  }

  /** Context picked with `#`: a folder's file list, or what the editor gathers (Problems, Terminal, Changes, a symbol). */
  async attachContext(source: ContextSource, path?: string, name?: string): Promise<void> {
    if (source === "folder") {
      if (this.context.files === null || path === undefined) return;
      const result = await this.context.files.folderAttachment(path);
      if (result.ok) this.attach(result.attachment, () => "");
      else this.context.notify(result.problem);
      return;
    }
    const workspaceContext = this.context.workspaceContext;
    if (!workspaceContext) return this.context.notify(l10n.t("This context is not available here."));
    const result = await workspaceContext.attachment({ source, ...(path === undefined ? {} : { path }), ...(name === undefined ? {} : { name }) });
    if (result.ok) this.attach(result.attachment, () => "");
    else this.context.notify(result.problem);
  }

  async attachPath(shownPath: string): Promise<void> {
    if (this.context.files === null) return;
    const result = await this.context.files.attachment(shownPath);
    if (result.ok) this.attach(result.attachment, () => "");
    else this.context.notify(l10n.t("The file could not be attached: {0}", result.problem));
  }

  removeAttachment(id: string): void {
    this.attachments.remove(id);
    this.context.attachmentsChanged();
  }

  private attach(attachment: NewAttachment | null, missing: () => string): boolean {
    if (attachment === null) {
      this.context.notify(missing());
      return false;
    }
    this.attachments.add(attachment);
    this.context.attachmentsChanged();
    return true;
  }
}

/** What `pending` gives within `ms`, else nothing (also when it fails). */
function withinTime<T>(pending: Promise<T[]>, ms: number): Promise<T[]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<T[]>((resolve) => (timer = setTimeout(() => resolve([]), ms)));
  return Promise.race([pending.catch(() => []), late]).finally(() => clearTimeout(timer));
}
