import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import type { RequestInstructions } from "../chat/chatSettings";
import { assembleInstructions, sentSources } from "../instructions/assembleInstructions";
import type { AssembledInstructions } from "../instructions/assembleInstructions";
import { localDate } from "../instructions/baseInstruction";
import { chooseRules } from "../instructions/projectRules";
import type { ChosenRule } from "../instructions/projectRules";
import { rulesView } from "../panel/rulesChip";
import { RULE_KINDS } from "../instructions/ruleFile";
import type { RuleKind } from "../instructions/ruleFile";
import type { CommandPrompt } from "../instructions/slashCommands";
import type { ProjectRulesWatcher } from "./projectRulesWatcher";
import type { InstructionChoices, PanelInstructionsView } from "../panel/chatControllerOptions";
import { modelSettingsFor } from "../chat/modelSettings";
import type { RelayChatSettings } from "./settings";

// What the panel's next request tells the model, from VS Code's side: the environment, the person's
// relayChat.instructions (User settings only: a workspace must not speak for the person), the instructions
// the person gave the relay and the model the panel sends to (relayChat.relays, relayChat.modelSettings; a model
// set to get no tools is told of none), the kinds of rules files the settings allow, and the file the turn works on (the active editor's). The request and
// "What the Model Is Told" both take src/instructions/'s one assembly, so they show and send the same text.

/** The relay (null: none set) and model the next request goes to: their own instructions go with it. */
export interface InstructionsTarget {
  relay: string | null;
  model: string;
}

/** What the person set for the relay and model a request goes to (User settings), as far as the instructions take it. */
export interface TargetInstructions {
  relay: { relay: string; text: string } | null;
  model: { model: string; text: string } | null;
  /** The model is set to get no tools (relayChat.modelSettings sendTools: false): the instructions name none. */
  noTools: boolean;
}

const NO_TARGET: TargetInstructions = { relay: null, model: null, noTools: false };

export class PanelInstructions {
  constructor(
    private readonly rules: ProjectRulesWatcher,
    /** Where the next request goes and what the person set for it; absent: nothing of the relay's or model's own. */
    private readonly target: () => TargetInstructions = () => NO_TARGET,
  ) {}

  /** What the next request is told: the tools, the conversation's switched-off rules files, its mode and task list, the slash command's prompt. */
  assemble(choices: InstructionChoices): AssembledInstructions {
    const { toolNames, rulesOff, plan, command } = choices;
    const config = vscode.workspace.getConfiguration("relayChat");
    const own = this.target();
    const folders = vscode.workspace.workspaceFolders ?? [];
    return assembleInstructions({
      environment: {
        os: `${os.type()} ${os.release()}`,
        shell: vscode.env.shell,
        workspaceFolders: folders.map((folder) => folder.name),
        date: localDate(new Date()),
        locale: vscode.env.language,
        tools: own.noTools ? [] : toolNames,
      },
      personInstructions: userSettingText(config.inspect<unknown>("instructions")?.globalValue),
      relayInstructions: own.relay,
      modelInstructions: own.model,
      rules: this.applicableRules(new Set(rulesOff)),
      multiRoot: folders.length > 1,
      mode: plan?.mode,
      tasks: plan?.tasks,
      commandPrompt: command ?? null,
    });
  }

  /** The rules files for the next message (the active editor's file decides the nearest and scoped ones). */
  private applicableRules(rulesOff: ReadonlySet<string> = new Set()): ChosenRule[] {
    return chooseRules(this.rules.current(), { workingOn: workingOn(), disabledKinds: disabledKindsNow(), disabledFiles: rulesOff });
  }

  /**
   * What the panel shows, from one assembly: the tokens the context meter counts, and the Rules chip (the files
   * that apply to the next message, each sent or switched off, with their estimates).
   */
  forPanel(choices: InstructionChoices): PanelInstructionsView {
    const assembled = this.assemble(choices);
    return { tokens: assembled.tokens, rules: rulesView(this.applicableRules(), assembled, new Set(choices.rulesOff), (vscode.workspace.workspaceFolders ?? []).length > 1, !this.rules.allowed) };
  }

  /** While rules files that changed are being read again: a promise for it, so a message sent right after an edit carries it. */
  ready(): Promise<void> | undefined {
    return this.rules.needsReading ? this.rules.fresh().then(() => undefined) : undefined;
  }

  /** The instructions as a request sends them; waits for rules files that changed to be read again. */
  async forRequest(choices: InstructionChoices): Promise<RequestInstructions> {
    await this.rules.fresh();
    return requestInstructionsOf(this.assemble(choices));
  }

  /** "What the Model Is Told": the whole text as the next message sends it, each part with its source and tokens. */
  async show(choices: InstructionChoices): Promise<void> {
    await this.rules.fresh();
    const document = await vscode.workspace.openTextDocument({ language: "markdown", content: instructionsDocument(this.assemble(choices), this.rules.allowed, choices.rulesOff) });
    await vscode.window.showTextDocument(document, { preview: true });
  }
}

/** The relay's instructions (relayChat.relays) and the model's there (relayChat.modelSettings), from the settings as read. */
export function targetInstructions(settings: Pick<RelayChatSettings, "relays" | "modelSettings">, target: InstructionsTarget): TargetInstructions {
  const relayText = settings.relays.find((profile) => profile.name === target.relay)?.instructions ?? "";
  const model = modelSettingsFor(settings.modelSettings, target.relay ?? "", target.model);
  const modelText = model.instructions ?? "";
  return {
    relay: target.relay !== null && relayText.trim() !== "" ? { relay: target.relay, text: relayText } : null,
    model: modelText.trim() !== "" ? { model: target.model, text: modelText } : null,
    noTools: model.sendTools === false,
  };
}

export function requestInstructionsOf(assembled: AssembledInstructions): RequestInstructions {
  return { text: assembled.text, tokens: assembled.tokens, sources: sentSources(assembled), hash: assembled.hash };
}

function instructionsDocument(assembled: AssembledInstructions, rulesAllowed: boolean, rulesOff: readonly string[]): string {
  const rows = assembled.parts.map((part) => {
    const note = part.left ? vscode.l10n.t("left out: the total limit was reached") : part.cut ? vscode.l10n.t("cut: {0} of {1} characters sent", part.cut.keptChars, part.cut.totalChars) : "";
    return `| ${part.source.replace(/\|/g, "\\|")} | ${part.tokens} | ${note} |`;
  });
  const fence = "`".repeat(Math.max(3, ...[...assembled.text.matchAll(/`+/g)].map((match) => match[0].length + 1)));
  return [
    `# ${vscode.l10n.t("What the model is told")}`,
    vscode.l10n.t("Sent as the request's instructions with your next message in the Relay Chat panel: about {0} tokens, counted by the context meter and the spend estimate. The request log records the sources and a hash, not the text.", assembled.tokens),
    ...(rulesAllowed ? [] : [vscode.l10n.t("This workspace is not trusted: its project rules files are not sent.")]),
    ...(rulesOff.length === 0 ? [] : [vscode.l10n.t("Switched off for this conversation (not sent): {0}", rulesOff.join(", "))]),
    [`| ${vscode.l10n.t("Source")} | ${vscode.l10n.t("Tokens (estimated)")} | |`, "|---|---:|---|", ...rows].join("\n"),
    `${fence}text\n${assembled.text}\n${fence}`,
  ].join("\n\n");
}

function disabledKindsNow(): Set<RuleKind> {
  return disabledKinds(vscode.workspace.getConfiguration("relayChat").get<unknown>("projectRules"));
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
