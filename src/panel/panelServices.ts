import type { ModelSettingsEntry } from "../chat/modelSettings";
import type { CheckpointId } from "../tools/checkpointStore";
import type { CompactionSettings } from "../chat/compaction";
import type { TurnCheckpoint } from "../chat/conversation";
import type { RelayClient } from "../relay/client";
import type { RelayProfile } from "../relay/relayProfiles";
import type { ContextSource, FileMatchView, FixAction, ImageLimitsView, ToWebview } from "./protocol";
import type { NewAttachment } from "./context/messageAttachments";

// What the chat controller needs from its surroundings, as small interfaces. The vscode adapter
// (vscodePanelServices.ts, chatViewProvider.ts) implements them in the editor; tests and benchmarks pass
// plain objects, so the controller runs on Node against the relay emulator.

export type EditorFix = Exclude<FixAction, "summarizeEarlierTurns">;

/** The relay and model a fix is about (a turn's), and the setting to open at: Model settings… takes them. */
export interface FixTarget {
  relay: string;
  model: string;
  field?: string;
}

/** The relay settings the panel uses (a subset of the extension's settings). */
export interface PanelSettings {
  baseUrl: string;
  /** The relayChat.model setting (or RELAY_CHAT_MODEL); empty when unset. */
  model: string;
  stream: boolean;
  maxOutputTokens: number | null;
  toolRoundCap: number;
  historyWarningTokens: number;
  /** relayChat.spendWarning: ask before a request whose input is estimated to cost more (price currency); null: off. */
  spendWarningAmount?: number | null;
  /** relayChat.compaction.*; absent: the defaults. */
  compaction?: CompactionSettings;
  /** Why a relay address that was set is not used, one sentence each naming the setting; absent: none. */
  relayProblems?: readonly string[];
  /** relayChat.modelSettings, as read; absent: none. */
  modelSettings?: readonly ModelSettingsEntry[];
  /** The relays, for what each says of itself (instructions, how it takes them); absent: nothing said. */
  relays?: readonly Pick<RelayProfile, "name" | "instructions" | "instructionsAs">[];
}

/** The relays, the active relay's client and why there is none. */
export interface RelayAccess {
  /** The active relay's client: where the panel sends. */
  current(): RelayClient | null;
  /** Every relay's name, in the order of the settings. */
  relayNames(): string[];
  /** The relay the panel sends to; null when none is set. */
  readonly activeRelay: string | null;
  /** A client for any relay (for its model list); null without its key. */
  clientFor(name: string): Promise<RelayClient | null>;
  /** Makes `name` the relay the panel sends to. */
  select(name: string): Promise<void>;
  readonly settings: PanelSettings;
  readonly hasKey: boolean;
  /** Why there is no client, in words the user can act on; null when there is one. */
  missing(): string | null;
  /** The key in use, so it can be removed from anything written or shown. */
  readonly secret: string | null;
  /** Every stored relay key (each relay's, and RELAY_CHAT_API_KEY): none may go into a request's text or the history. */
  secrets?(): readonly string[];
}

/** The keys to take out of text: every stored one where known, else the one in use. */
export function relayKeys(relay: Pick<RelayAccess, "secret" | "secrets">): readonly (string | null)[] {
  return relay.secrets?.() ?? [relay.secret];
}

/** The webview, as far as the controller talks to it. */
export interface PanelView {
  post(message: ToWebview): void;
  readonly visible: boolean;
  reveal(): void;
}

/** Things only the editor can do. */
export interface EditorServices {
  copyToClipboard(text: string): Promise<void>;
  /** Asks the user, then opens an http(s) address outside the editor. */
  confirmAndOpenLink(url: string): Promise<void>;
  /** Opens a workspace file (an absolute path the panel checked) in an editor, at `line` (1-based) when given. */
  openFile(absolutePath: string, line: number | null): Promise<void>;
  /** False when there is no editor to insert into. */
  insertCode(code: string): Promise<boolean>;
  openCode(code: string, language: string): Promise<void>;
  /** Merges `code` into the file the block names (`fileHint`, or "": the active editor's), for review in the editor. */
  applyCode(code: string, fileHint: string): Promise<void>;
  /** The fixes that open a command or page (Summarize earlier turns is the controller's); `target` goes to the command. */
  runFix(action: EditorFix, target?: FixTarget): Promise<void>;
  /** The active editor's selection, or null when nothing is selected. */
  activeSelection(): NewAttachment | null;
  /** The active editor's whole file, or null when no editor is open. */
  activeFile(): NewAttachment | null;
  /** Asks what to attach (the paperclip); null when the user cancels. */
  pickAttachment(): Promise<NewAttachment | null>;
  showInformation(message: string): void;
}

/** Review and restore of the files a turn changed, between its checkpoint and now (the editor's diff views and dialogs). */
export interface TurnChangesActions {
  review(checkpoint: TurnCheckpoint): Promise<void>;
  /**
   * The checkpoint taken just before the restore (for Undo restore), or null when nothing was restored.
   * `conversationId`: the conversation whose turn it is; what the restore did is told to its model only.
   */
  restore(checkpoint: TurnCheckpoint, conversationId: string | null): Promise<CheckpointId | null>;
  /** Puts back what the turn's restore replaced; false when nothing was undone. */
  undoRestore(checkpoint: TurnCheckpoint, conversationId: string | null): Promise<boolean>;
}

/** The model the user picked in the panel for each relay, remembered per workspace: an id typed for one relay never follows to another. */
export interface ModelMemory {
  get(relay: string): string | undefined;
  set(relay: string, model: string | undefined): Promise<void>;
}

/** The conversation the panel showed last in this workspace, so a reloaded window shows it again. */
export interface ConversationOnScreenMemory {
  get(): string | undefined;
  set(conversationId: string | undefined): Promise<void>;
}

/** Panel settings that only the panel reads. */
export interface PanelPreferences {
  /** Context window sizes in tokens, by model id (relayChat.contextWindows): /v1/models lists none. */
  contextWindows: Readonly<Record<string, number>>;
  /** The relay's web console (balance, keys, usage log), if the user set relayChat.consoleUrl. */
  consoleUrl: string;
  /** relayChat.images.maxLongestSide and relayChat.images.maxMegabytes (in bytes); the defaults when absent. */
  imageLimits?: ImageLimitsView;
}

export interface PanelLog {
  info(message: string): void;
  error(message: string): void;
}

/** Context picked in the `#` menu or the paperclip: a symbol is `name` at `path` ("file:line"). */
export interface ContextRequest {
  source: Exclude<ContextSource, "folder">;
  path?: string;
  name?: string;
}

export type ContextAttachmentResult = { ok: true; attachment: NewAttachment } | { ok: false; problem: string };

/** The editor's context a person would otherwise paste: Problems, the terminal, git changes, symbols (src/host/context/workspaceContext.ts). */
export interface WorkspaceContextSource {
  attachment(request: ContextRequest): Promise<ContextAttachmentResult>;
  /** Workspace symbols matching the `#` query, for the menu. */
  symbols(query: string): Promise<FileMatchView[]>;
}
