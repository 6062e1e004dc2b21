import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { localDate } from "../../instructions/baseInstruction";
import { RULE_KINDS } from "../../instructions/ruleFile";
import type { RuleKind } from "../../instructions/ruleFile";
import type { InstructionChoices } from "../../panel/chatControllerOptions";
import { assemblePanelInstructions } from "../../panel/context/instructionsAssembly";
import type { InstructionsAssembly, PanelInstructionSources } from "../../panel/context/instructionsAssembly";
import { modelSettingsFor } from "../../chat/modelSettings";
import { removeKeys } from "../../relay/redact";
import type { ProjectRulesWatcher } from "./projectRulesWatcher";
import type { RelayChatSettings } from "../settings";
import type { WorkingEditor } from "../context/workingEditor";

// What the panel's next request tells the model, from VS Code's side: the environment, the person's
// relayChat.instructions (User settings only: a workspace must not speak for the person), the instructions
// the person gave the relay and the model the panel sends to (relayChat.relays, relayChat.modelSettings), the
// rules files as last read with the kinds the settings allow, and the file the person works in (the last editor
// worked in: Relay Chat's own preview does not count). The panel assembles them (src/panel/context/instructionsAssembly.ts)
// once per panel state, and the request, the Rules chip, the meter and "What the model is told" all take that.

/** The relay (null: none set) and model the next request goes to: their own instructions go with it. */
export interface InstructionsTarget {
  relay: string | null;
  model: string;
}

/** What the person set for the relay and model a request goes to (User settings), as far as the instructions take it. */
export interface TargetInstructions {
  relay: { relay: string; text: string } | null;
  model: { model: string; text: string } | null;
}

const NO_TARGET: TargetInstructions = { relay: null, model: null };

export class PanelInstructions {
  constructor(
    private readonly rules: ProjectRulesWatcher,
    private readonly workingEditor: WorkingEditor,
    /** Where the next request goes and what the person set for it; absent: nothing of the relay's or model's own. */
    private readonly target: () => TargetInstructions = () => NO_TARGET,
    /** Every stored relay key: none goes to the model inside a rules or prompt file. */
    private readonly secrets: () => readonly string[] = () => [],
  ) {}

  /** The one assembly of the next request's instructions, with the Rules chip made from it. */
  assemble(choices: InstructionChoices): InstructionsAssembly {
    return assemblePanelInstructions(this.sources(), choices);
  }

  /** The editor's part of the assembly, read now. */
  sources(): PanelInstructionSources {
    const config = vscode.workspace.getConfiguration("relayChat");
    const own = this.target();
    const folders = vscode.workspace.workspaceFolders ?? [];
    return {
      environment: { os: `${os.type()} ${os.release()}`, shell: vscode.env.shell, workspaceFolders: folders.map((folder) => folder.name), date: localDate(new Date()), locale: vscode.env.language },
      personInstructions: userSettingText(config.inspect<unknown>("instructions")?.globalValue),
      relayInstructions: own.relay,
      modelInstructions: own.model,
      rulesFolders: this.rules.current(),
      rulesAllowed: this.rules.allowed,
      workingOn: workingOn(this.workingEditor.current),
      disabledKinds: disabledKinds(config.get<unknown>("projectRules")),
      redact: (text) => removeKeys(text, this.secrets()),
    };
  }

  /** While rules files that changed are being read again: a promise for it, so a message sent right after an edit carries it. */
  ready(): Promise<void> | undefined {
    return this.rules.needsReading ? this.rules.fresh().then(() => undefined) : undefined;
  }
}

/** The relay's instructions (relayChat.relays) and the model's there (relayChat.modelSettings), from the settings as read. */
export function targetInstructions(settings: Pick<RelayChatSettings, "relays" | "modelSettings">, target: InstructionsTarget): TargetInstructions {
  const relayText = settings.relays.find((profile) => profile.name === target.relay)?.instructions ?? "";
  const modelText = modelSettingsFor(settings.modelSettings, target.relay ?? "", target.model).instructions ?? "";
  return {
    relay: target.relay !== null && relayText.trim() !== "" ? { relay: target.relay, text: relayText } : null,
    model: modelText.trim() !== "" ? { model: target.model, text: modelText } : null,
  };
}

/** The file worked in, relative to its workspace folder, per folder name. */
function workingOn(editor: vscode.TextEditor | undefined): Map<string, string[]> {
  const files = new Map<string, string[]>();
  const uri = editor?.document.uri;
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
