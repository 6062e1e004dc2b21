import { assembleInstructions } from "../../instructions/assembleInstructions";
import type { AssembledInstructions } from "../../instructions/assembleInstructions";
import type { InstructionEnvironment } from "../../instructions/baseInstruction";
import { chooseRules } from "../../instructions/projectRules";
import type { RuleKind, RulesFolder } from "../../instructions/ruleFile";
import type { InstructionChoices } from "./instructionChoices";
import type { RulesView } from "../protocol";
import { ruleFileId, rulesView } from "./rulesChip";

// The panel's one assembly of what the next request tells the model: the editor's part (read by
// src/host/instructions/panelInstructions.ts: the environment, the person's, relay's and model's instructions, the rules
// files as last read, the file worked on) with the conversation's choices (tools, switched-off files, mode, task
// list, the message's slash command). The Rules chip is made from the same assembly, so it cannot disagree with
// the text. Kept free of vscode: the tests assemble exactly what the extension does.

/** What the editor gives the assembly. */
export interface PanelInstructionSources {
  /** Everything of the environment but the tools, which the conversation's choices give. */
  environment: Omit<InstructionEnvironment, "tools">;
  /** relayChat.instructions (User settings). */
  personInstructions?: string;
  relayInstructions?: { relay: string; text: string } | null;
  modelInstructions?: { model: string; text: string } | null;
  /** The workspace's rules files as last read (none where they may not be read). */
  rulesFolders: readonly RulesFolder[];
  /** False in an untrusted workspace where the person has not allowed the rules files. */
  rulesAllowed: boolean;
  /** The files the turn works on, per workspace folder: the nearest and scoped rules follow them. */
  workingOn: ReadonlyMap<string, readonly string[]>;
  /** Kinds turned off in relayChat.projectRules. */
  disabledKinds?: ReadonlySet<RuleKind>;
  /** Takes every stored relay key out of the person's and the workspace's text (rules and prompt files). */
  redact?: (text: string) => string;
}

/** One assembly: the text with its parts, and the Rules chip made from it. */
export interface InstructionsAssembly {
  assembled: AssembledInstructions;
  rules: RulesView | null;
  rulesAllowed: boolean;
}

export function assemblePanelInstructions(sources: PanelInstructionSources, choices: InstructionChoices): InstructionsAssembly {
  const applicable = chooseRules(sources.rulesFolders, { workingOn: sources.workingOn, ...(sources.disabledKinds ? { disabledKinds: sources.disabledKinds } : {}) });
  const off = new Set(choices.rulesOff);
  const multiRoot = sources.environment.workspaceFolders.length > 1;
  const assembled = assembleInstructions({
    environment: { ...sources.environment, tools: choices.toolNames },
    personInstructions: sources.personInstructions,
    relayInstructions: sources.relayInstructions,
    modelInstructions: sources.modelInstructions,
    rules: applicable.filter((rule) => !off.has(ruleFileId(rule))),
    multiRoot,
    mode: choices.plan?.mode,
    tasks: choices.plan?.tasks,
    commandPrompt: choices.command ?? null,
    ...(sources.redact ? { redact: sources.redact } : {}),
  });
  return { assembled, rules: rulesView(applicable, assembled, off, multiRoot, !sources.rulesAllowed), rulesAllowed: sources.rulesAllowed };
}
