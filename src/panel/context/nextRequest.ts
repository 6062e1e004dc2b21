import type { ChatSettings, RequestInstructions } from "../../chat/chatSettings";
import { offeredTools } from "../../chat/modelRequestOptions";
import type { ChatTools } from "../../chat/toolRound";
import { sentSources } from "../../instructions/assembleInstructions";
import { instructionsCarrier } from "../../relay/requestBuilder";
import type { ChatControllerOptions } from "../chatControllerOptions";
import type { InstructionChoices, PlanInputs } from "./instructionChoices";
import type { InstructionsAssembly } from "./instructionsAssembly";
import type { NextRequestView } from "./nextRequestView";
import { ConversationRules } from "./rulesChip";
import type { SessionRunner } from "../turns/sessionRunner";
import type { MessageCommand } from "../turns/slashCommandRunner";
import { toolsLimitedBy } from "../turns/slashCommandRunner";

// What the next request of the panel tells the model, made once per panel state: the instructions (one
// assembly, with their sources), the tools it offers, the wire and how the instructions travel on it. The
// context meter, the Rules chip, "What the model is told", the spend guard and the request all read this one
// value, so none of them can say something the others do not (issue 36: they used to disagree).

/** About four characters a token, as every estimate of the panel. */
const CHARACTERS_PER_TOKEN = 4;

export type { NextRequestView } from "./nextRequestView";

export interface NextRequestInputs {
  /** The session settings the next request goes with (model, relay, wire, the model's own settings). */
  settings: Pick<ChatSettings, "model" | "relay" | "protocol" | "instructionsAs" | "modelSettings">;
  /** The conversation's tools; null before any were built. */
  tools: ChatTools | null;
  plan: PlanInputs;
  /** The command of the message being sent, else the draft's. */
  command: MessageCommand | null;
  rulesOff: readonly string[];
  /** The editor's assembly (src/host/instructions/panelInstructions.ts); absent: no instructions. */
  assemble?: (choices: InstructionChoices) => InstructionsAssembly;
}

export function nextRequestOf(inputs: NextRequestInputs): NextRequestView {
  const { settings, plan, command, rulesOff } = inputs;
  // A command that names its tools limits them for its message (as toolsLimitedBy does while it is sent).
  const limit = command?.tools ?? null;
  const tools = offeredTools(inputs.tools && limit !== null ? toolsLimitedBy(inputs.tools, () => limit) : inputs.tools, plan.mode, settings.modelSettings) ?? [];
  const assembly = inputs.assemble?.({ toolNames: tools.map((tool) => tool.name), rulesOff, plan, command: command?.prompt ?? null }) ?? null;
  const instructions = assembly?.assembled ?? null;
  const toolTokens = tools.length === 0 ? 0 : Math.ceil(JSON.stringify(tools).length / CHARACTERS_PER_TOKEN);
  const wire = settings.protocol ?? "responses";
  return {
    relay: settings.relay ?? null,
    model: settings.model,
    wire,
    carrier: instructionsCarrier(wire, settings.instructionsAs),
    instructions,
    tools,
    toolTokens,
    tokens: (instructions?.tokens ?? 0) + toolTokens,
    rules: assembly?.rules ?? null,
    rulesAllowed: assembly?.rulesAllowed ?? true,
    rulesOff,
    command,
  };
}

/** The instructions as the request sends them: the text, its sources and hash for the record, the tokens the spend guard adds. */
export function requestInstructionsOf(next: NextRequestView): RequestInstructions | undefined {
  const instructions = next.instructions;
  if (instructions === null) return undefined;
  return { text: instructions.text, tokens: next.tokens, sources: sentSources(instructions), hash: instructions.hash };
}

/** Where the controller's parts meet for it: the settings, the session's tools and plan, the command. */
export interface NextRequestParts extends Pick<ChatControllerOptions, "instructions" | "instructionsReady" | "instructionsPreview"> {
  settings: () => ChatSettings;
  runner: SessionRunner;
  command: () => MessageCommand | null;
  /** Tells the panel its state changed (a rules file was switched, the tools were built). */
  changed: () => void;
}

/** The next request of the conversation on screen, as the panel state and the send both take it. */
export class NextRequestSource {
  /** The rules files switched off for the conversation on screen (the Rules chip). */
  readonly rules: ConversationRules;

  constructor(private readonly parts: NextRequestParts) {
    this.rules = new ConversationRules(parts.runner, parts.changed);
  }

  /** The settings a send goes with, their instructions the ones the state shows. */
  current(): { next: NextRequestView; settings: ChatSettings } {
    const { parts } = this;
    const settings = parts.settings();
    const next = nextRequestOf({ settings, tools: parts.runner.tools, plan: parts.runner.planInputs(), command: parts.command(), rulesOff: this.rules.off(), assemble: parts.instructions });
    return { next, settings: { ...settings, instructions: requestInstructionsOf(next) } };
  }

  /**
   * Builds the tools in a moment, once the panel is on screen (after its first paint, or its model list) and not in
   * its way: from then on the state names what the first request offers.
   */
  prepareTools(): void {
    setTimeout(() => this.parts.runner.prepareTools() && this.parts.changed());
  }

  /** "What the model is told": the next request as it stands once changed rules files were read, its tools built. */
  async show(): Promise<void> {
    await this.parts.instructionsReady?.();
    this.parts.runner.prepareTools();
    await this.parts.instructionsPreview?.show(this.current().next);
  }
}
