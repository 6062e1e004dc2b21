import type { ModelProtocol } from "../../chat/modelSettings";
import type { AssembledInstructions } from "../../instructions/assembleInstructions";
import type { InstructionsCarrier } from "../../relay/requestBuilder";
import type { FunctionToolDefinition } from "../../relay/types";
import type { RulesView } from "../protocol";
import type { MessageCommand } from "../turns/slashCommandRunner";

// What the next request of the panel tells the model, as one value (nextRequest.ts makes it). A module of its
// own so the controller's options (the preview they are given shows it) import it without importing
// nextRequest.ts, which reads those options.

/** The next request's model, wire, instructions, tools and their estimate. */
export interface NextRequestView {
  relay: string | null;
  model: string;
  wire: ModelProtocol;
  /** Where the instructions travel: the `instructions` field, a developer message, or Chat Completions' system message. */
  carrier: InstructionsCarrier;
  /** Null where the panel is given no assembly (tests, benchmarks): nothing is sent as instructions. */
  instructions: AssembledInstructions | null;
  /** The request's `tools`, in its order. */
  tools: FunctionToolDefinition[];
  /** The tools' definitions as the request lists them, estimated. */
  toolTokens: number;
  /** The instructions and the tools' definitions: what the meter and the spend guard add to the messages. */
  tokens: number;
  rules: RulesView | null;
  rulesAllowed: boolean;
  /** Rules files switched off for the conversation, as `folder/path`. */
  rulesOff: readonly string[];
  /** The slash command the message starts with (its prompt is a part of the instructions). */
  command: MessageCommand | null;
}
