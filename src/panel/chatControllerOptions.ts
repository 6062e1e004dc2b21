import type { HistoryStore } from "../chat/historyStore";
import type { RequestLedger } from "../chat/requestLedger";
import type { ReviewReport } from "../chat/reviewNote";
import type { ChatTools } from "../chat/toolRound";
import type { ModelPrice } from "../relay/modelPrice";
import type { ApprovalAnswer } from "../tools/approvalPolicy";
import type { ApprovalRequest } from "../tools/approvalGate";
import type { CommitMessageWriter } from "./turns/commitMessage";
import type { ConversationUi } from "./conversations/conversationCommands";
import type { FileReferenceResolver } from "./editor/fileReferences";
import type { InstructionChoices } from "./context/instructionChoices";
import type { InstructionsAssembly } from "./context/instructionsAssembly";
import type { NextRequestView } from "./context/nextRequestView";
import type { ConversationOnScreenMemory, EditorServices, ModelMemory, PanelLog, PanelPreferences, RelayAccess, TurnChangesActions, WorkspaceContextSource } from "./panelServices";
import type { PanelSyncTimers } from "./panelSync";
import type { PlanCommandHook, SlashCommandSource } from "./turns/slashCommandRunner";
import type { WorkspaceFiles } from "./context/workspaceFiles";

// What the chat controller is built with: the relay, storage, the editor's services and the hooks other
// features listen on (the walkthrough, the status bar, the view's badge). One place to read them all.

export type { InstructionChoices, PlanInputs } from "./context/instructionChoices";

export interface ChatControllerOptions {
  relay: RelayAccess;
  store: HistoryStore;
  ledger: RequestLedger;
  log: PanelLog;
  /** Tools for the model; approval is asked through the panel. */
  tools: (askUser: (request: ApprovalRequest) => Promise<ApprovalAnswer>) => ChatTools;
  modelMemory: ModelMemory;
  /** The conversation on screen, remembered so a reloaded window opens it again; absent: a reload starts a new chat. */
  conversationOnScreen?: ConversationOnScreenMemory;
  editor: EditorServices;
  conversationUi: ConversationUi;
  /** The webview's UI strings, localized; sent once with each snapshot. */
  strings: () => Record<string, string>;
  /** VS Code's display language, for dates and plurals in the webview. */
  locale?: () => string;
  preferences?: () => PanelPreferences;
  /** The workspace's files for `#`; none where no folder is open on disk. */
  files?: WorkspaceFiles | null;
  /** Problems, terminal output, git changes and symbols for `#` and the paperclip; absent: only files and the selection. */
  workspaceContext?: WorkspaceContextSource | null;
  /** Which file names in answers are workspace files (they open in the editor); none where no folder is open on disk. */
  fileReferences?: FileReferenceResolver | null;
  /** Settles once the relay settings and key were read; the first snapshot waits for it. */
  relayReady?: Promise<void>;
  /** The first snapshot is on screen (for the activation timing). */
  onRendered?: (sinceLoadMs: number) => void;
  /** What balance a relay (the active one for null) reports, as a sentence; null when unknown. */
  balanceNote?: (relay: string | null) => string | null;
  /** The price of a model on a relay as known now (never fetched while sending); null: unknown. */
  priceOf?: (relay: string, model: string) => ModelPrice | null;
  /**
   * The one assembly of what the model is told with the next request, with the Rules chip made from it
   * (src/host/instructions/panelInstructions.ts reads the editor's part; src/panel/context/instructionsAssembly.ts assembles). Absent:
   * no instructions and no chip. Called once per panel state and once per send (nextRequest.ts).
   */
  instructions?: (choices: InstructionChoices) => InstructionsAssembly;
  /** While rules files that changed are read again: resolves once they were (a turn waits for it); else undefined. */
  instructionsReady?: () => Promise<void> | undefined;
  /** "What the model is told" as a document of its own: opened on request, kept in step with each panel state while open. */
  instructionsPreview?: InstructionsPreviewHost;
  /** The `/` commands: built-ins and prompt files (src/host/instructions/promptFilesWatcher.ts); absent: none. */
  slashCommands?: SlashCommandSource | null;
  /** /commit's way to the staged changes and the Source Control message box; absent: /commit says Git is missing. */
  commitMessages?: CommitMessageWriter | null;
  /** Plan mode takes `/plan` over here when it is built; absent: /plan sends its prompt. */
  planCommand?: PlanCommandHook;
  /** The check-up's finding that a model needs Chat Completions, waiting for the person (the panel offers it); absent: none. */
  chatCompletionsFinding?: () => { relay: string; model: string } | null;
  /** Saves a model's wire the person confirmed (relayChat.modelSettings in User settings); absent: remembered for this session only. */
  saveModelProtocol?: (relay: string, model: string, protocol: "chat") => Promise<void>;
  /** A request of a turn ended (the relay's balance may have changed). */
  onRequestEnd?: () => void;
  timers?: PanelSyncTimers;
  /** The person picked a model (the walkthrough's step). */
  onModelPicked?: (model: string) => void;
  /** A turn on screen ended with a completed answer (the walkthrough's last step). */
  onTurnCompleted?: () => void;
  /** How many tool calls wait for approval changed (the view's badge). */
  onPendingApprovals?: (count: number) => void;
  /** Why the model gets fewer tools here (an untrusted workspace); shown when there is no other notice. */
  toolsNotice?: () => string | null;
  /** Review and restore of a turn's file changes; absent where checkpoints are not built. */
  turnChanges?: TurnChangesActions;
  /** How many files wait for Keep or Undo in the editor (the panel shows it above the message box). */
  filesToReview?: () => number;
  /** What the person did with the model's changes to files (review, restore), told to the model with the next message. */
  editReviews?: ReviewReport;
}

/** The editor's side of "What the model is told" (src/host/instructions/instructionsPreview.ts). */
export interface InstructionsPreviewHost {
  show(next: NextRequestView): Promise<void>;
  /** The panel's state changed: an open preview follows it (`next` is made only then). */
  changed(next: () => NextRequestView): void;
}
