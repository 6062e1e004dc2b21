import type { NextRequestSource } from "./context/nextRequest";
import type { ConversationSwitcher } from "./conversations/conversationSwitcher";
import type { EditorActions } from "./editor/editorActions";
import type { ToHost } from "./protocol";
import type { PromptBroker } from "./turns/promptBroker";
import type { SlashCommandRunner } from "./turns/slashCommandRunner";
import type { TurnFileActions } from "./turns/turnFileActions";
import type { TurnStarter } from "./turns/turnStarter";

// Every message the webview can send, mapped to what the controller does about it. The switch ends in a
// `never` check, so a new message type does not compile until it is handled here.

/**
 * What carries the messages out: the chat controller (chatController.ts), which passes itself. Spelled out
 * here so this file need not import the controller, which imports it.
 */
export interface PanelMessageTarget {
  readonly conversations: ConversationSwitcher;
  readonly editorActions: EditorActions;
  readonly nextRequest: NextRequestSource;
  readonly prompts: PromptBroker;
  readonly slash: SlashCommandRunner;
  readonly turnFiles: TurnFileActions;
  readonly turns: TurnStarter;
  ready(): Promise<void>;
  rendered(sinceLoadMs: number): void;
  stop(): void;
  newChat(): Promise<void>;
  setModel(model: string, relay?: string): Promise<void>;
  refreshModels(): Promise<void>;
  log(level: "info" | "error", message: string): void;
  loadImage(name: string): Promise<void>;
  exportConversation(conversationId?: string): Promise<void>;
  fieldsChanged(): void;
  showBranch(turnId: string, direction: -1 | 1): Promise<void>;
}

export async function dispatchPanelMessage(controller: PanelMessageTarget, message: ToHost): Promise<void> {
  const editor = controller.editorActions;
  switch (message.type) {
    case "ready":
      return controller.ready();
    case "rendered":
      return controller.rendered(message.sinceLoadMs);
    case "send":
      return controller.slash.send(message.text, message.images ?? []);
    case "stop":
      return controller.stop();
    case "newChat":
      return controller.newChat();
    case "selectModel":
      return controller.setModel(message.model, message.relay);
    case "refreshModels":
      return controller.refreshModels();
    case "approval":
      controller.prompts.answerApproval(message.callId, message.answer);
      return;
    case "confirmSend":
      controller.prompts.answerSpend(message.confirmed);
      return;
    case "retry":
      return controller.slash.again(message.turnId, () => controller.turns.retry(message.turnId));
    case "useChatCompletions":
      return controller.slash.again(message.turnId, () => controller.turns.useChatCompletions(message.turnId));
    case "continue":
      return controller.slash.again(message.turnId, () => controller.turns.runTurn((session) => session.continueTurn(message.turnId)));
    case "includeTurn":
      return controller.turns.includeIncompleteTurn(message.turnId);
    case "resendWithoutImages":
      return controller.slash.again(message.turnId, () => controller.turns.runTurn((session) => session.resendWithoutImages(message.turnId)));
    case "regenerate":
      return controller.slash.again(message.turnId, () => controller.turns.runTurn((session) => session.regenerate(message.turnId)));
    case "editAndResend":
      return controller.slash.again(message.turnId, () => controller.turns.editAndResend(message.turnId, message.text), message.text);
    case "showBranch":
      return controller.showBranch(message.turnId, message.direction);
    case "switchConversation":
      return controller.conversations.open(message.conversationId);
    case "loadTurns":
      return controller.conversations.loadTurns(message.conversationId, message.turnIds);
    case "renameConversation":
      return controller.conversations.rename(message.conversationId);
    case "deleteConversation":
      return controller.conversations.delete(message.conversationId);
    case "exportConversation":
      return controller.exportConversation(message.conversationId);
    case "copyText":
      return editor.copyText(message.text);
    case "copyCurl":
      return editor.copyCurl(message.turnId, message.receiptIndex);
    case "openLink":
      return editor.openLink(message.href);
    case "findFileReferences":
      return editor.findFileReferences(message.paths);
    case "openFileReference":
      return editor.openFileReference(message.path, message.line);
    case "insertCode":
      return editor.insertCode(message.code);
    case "openCode":
      return editor.openCode(message.code, message.language);
    case "turnChanges":
      return controller.turnFiles.turnChanges(message.turnId, message.action);
    case "applyCode":
      return controller.turnFiles.applyCode(message.turnId, message.code, message.file);
    case "attachSelection":
      editor.attachSelection();
      return;
    case "attachFile":
      return editor.pickAttachment();
    case "showInstructions":
      return controller.slash.showInstructions(message.draft);
    case "draftCommand":
      if (controller.slash.setDraft(message.text)) controller.fieldsChanged();
      return;
    case "setRuleFile":
      return controller.nextRequest.rules.set(message.id, message.on);
    case "attachPath":
      return editor.attachPath(message.path);
    case "findFiles":
      return editor.findFiles(message.query);
    case "attachContext":
      return editor.attachContext(message.source, message.path, message.name);
    case "removeAttachment":
      return editor.removeAttachment(message.id);
    case "openAttachment":
      return editor.openAttachment(message.target);
    case "removeActiveFile":
      return editor.removeActiveFile();
    case "loadImage":
      return controller.loadImage(message.name);
    case "setMode":
      return controller.turns.plan.setMode(message.mode);
    case "actOnPlan":
      return controller.turns.plan.actOnPlan(message.turnId);
    case "editTask":
      return controller.turns.plan.editTask(message);
    case "fix":
      return message.action === "summarizeEarlierTurns" ? controller.turns.summarizeEarlierTurns() : editor.runFix(message.action, message.turnId);
    case "log":
      return controller.log(message.level, message.message);
    default:
      return unreachable(message);
  }
}

function unreachable(message: never): never {
  throw new Error(`Unhandled message ${JSON.stringify(message)}`);
}
