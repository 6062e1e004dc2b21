import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import type { RequestInstructions } from "../chat/chatSettings";
import { assembleInstructions, sentSources } from "../instructions/assembleInstructions";
import type { AssembledInstructions } from "../instructions/assembleInstructions";
import { localDate } from "../instructions/baseInstruction";
import { chooseRules } from "../instructions/projectRules";
import { RULE_KINDS } from "../instructions/ruleFile";
import type { RuleKind } from "../instructions/ruleFile";
import { modelSettingsFor } from "../chat/modelSettings";
import type { InstructionsTarget } from "../panel/chatControllerOptions";
import type { ProjectRulesWatcher } from "./projectRulesWatcher";
import type { RelayChatSettings } from "./settings";

// What the panel's next request tells the model, from VS Code's side: the environment, the person's
// relayChat.instructions (User settings only: a workspace must not speak for the person), the instructions
// the person gave the relay and the model (relayChat.relays, relayChat.modelSettings), the kinds of
// rules files the settings allow, and the file the turn works on (the active editor's). The request and
// "What the Model Is Told" both take src/instructions/'s one assembly, so they show and send the same text.

/** The person's instructions for a relay and for a model on it (User settings); null where there are none. */
export type TargetInstructions = (target: InstructionsTarget) => { relay: { relay: string; text: string } | null; model: { model: string; text: string } | null };

export class PanelInstructions {
  constructor(
    private readonly rules: ProjectRulesWatcher,
    private readonly targetInstructions: TargetInstructions = () => ({ relay: null, model: null }),
  ) {}

  assemble(toolNames: readonly string[], target: InstructionsTarget | null = null): AssembledInstructions {
    const own = target === null ? { relay: null, model: null } : this.targetInstructions(target);
    const config = vscode.workspace.getConfiguration("relayChat");
    const folders = vscode.workspace.workspaceFolders ?? [];
    return assembleInstructions({
      environment: {
        os: `${os.type()} ${os.release()}`,
        shell: vscode.env.shell,
        workspaceFolders: folders.map((folder) => folder.name),
        date: localDate(new Date()),
        locale: vscode.env.language,
        tools: toolNames,
      },
      personInstructions: userSettingText(config.inspect<unknown>("instructions")?.globalValue),
      relayInstructions: own.relay,
      modelInstructions: own.model,
      rules: chooseRules(this.rules.current(), { workingOn: workingOn(), disabledKinds: disabledKinds(config.get<unknown>("projectRules")) }),
      multiRoot: folders.length > 1,
    });
  }

  /** The instructions as a request sends them; waits for rules files that changed to be read again. */
  async forRequest(toolNames: readonly string[], target: InstructionsTarget | null = null): Promise<RequestInstructions> {
    await this.rules.fresh();
    return requestInstructionsOf(this.assemble(toolNames, target));
  }

  /** "What the Model Is Told": the whole text as the next message sends it, each part with its source and tokens. */
  async show(toolNames: readonly string[], target: InstructionsTarget | null = null): Promise<void> {
    await this.rules.fresh();
    const document = await vscode.workspace.openTextDocument({ language: "markdown", content: instructionsDocument(this.assemble(toolNames, target), this.rules.allowed) });
    await vscode.window.showTextDocument(document, { preview: true });
  }
}

/** The relay's instructions (relayChat.relays) and the model's there (relayChat.modelSettings), from the settings as read. */
export function targetInstructions(settings: Pick<RelayChatSettings, "relays" | "modelSettings">, target: InstructionsTarget): ReturnType<TargetInstructions> {
  const relayText = settings.relays.find((profile) => profile.name === target.relay)?.instructions ?? "";
  const modelText = modelSettingsFor(settings.modelSettings, target.relay ?? "", target.model).instructions ?? "";
  return {
    relay: target.relay !== null && relayText.trim() !== "" ? { relay: target.relay, text: relayText } : null,
    model: modelText.trim() !== "" ? { model: target.model, text: modelText } : null,
  };
}

export function requestInstructionsOf(assembled: AssembledInstructions): RequestInstructions {
  return { text: assembled.text, tokens: assembled.tokens, sources: sentSources(assembled), hash: assembled.hash };
}

function instructionsDocument(assembled: AssembledInstructions, rulesAllowed: boolean): string {
  const rows = assembled.parts.map((part) => {
    const note = part.left ? vscode.l10n.t("left out: the total limit was reached") : part.cut ? vscode.l10n.t("cut: {0} of {1} characters sent", part.cut.keptChars, part.cut.totalChars) : "";
    return `| ${part.source.replace(/\|/g, "\\|")} | ${part.tokens} | ${note} |`;
  });
  const fence = "`".repeat(Math.max(3, ...[...assembled.text.matchAll(/`+/g)].map((match) => match[0].length + 1)));
  return [
    `# ${vscode.l10n.t("What the model is told")}`,
    vscode.l10n.t("Sent as the request's instructions with your next message in the Relay Chat panel: about {0} tokens, counted by the context meter and the spend estimate. The request log records the sources and a hash, not the text.", assembled.tokens),
    ...(rulesAllowed ? [] : [vscode.l10n.t("This workspace is not trusted: its project rules files are not sent.")]),
    [`| ${vscode.l10n.t("Source")} | ${vscode.l10n.t("Tokens (estimated)")} | |`, "|---|---:|---|", ...rows].join("\n"),
    `${fence}text\n${assembled.text}\n${fence}`,
  ].join("\n\n");
}

/** The active editor's file, relative to its workspace folder, per folder name. */
function workingOn(): Map<string, string[]> {
  const files = new Map<string, string[]>();
  const uri = vscode.window.activeTextEditor?.document.uri;
  const folder = uri ? vscode.workspace.getWorkspaceFolder(uri) : undefined;
  if (uri && folder) files.set(folder.name, [path.posix.relative(folder.uri.path, uri.path)]);
  return files;
}

function disabledKinds(setting: unknown): Set<RuleKind> {
  const values = typeof setting === "object" && setting !== null ? (setting as Record<string, unknown>) : {};
  return new Set(RULE_KINDS.filter((kind) => values[kind] === false));
}

function userSettingText(value: unknown): string {
  return typeof value === "string" ? value : "";
}
