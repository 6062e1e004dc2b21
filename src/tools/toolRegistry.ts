// The set of tools the extension knows, and which of them a request offers to the model.
import type { FunctionToolDefinition } from "../relay/types";
import type { ToolAvailability } from "./approvalPolicy";
import { createArgumentValidator } from "./argumentValidation";
import type { ArgumentCheck } from "./argumentValidation";
import { modeProblem } from "./planMode";
import type { Tool } from "./toolContract";

const toolNamePattern = /^[A-Za-z0-9_-]{1,64}$/;

export type ToolOffer = { offered: true } | { offered: false; problem: string };

export class ToolRegistry {
  private readonly toolsByName = new Map<string, Tool>();
  private readonly argumentChecks = new Map<string, ArgumentCheck>();

  constructor(tools: readonly Tool[]) {
    const compileSchema = createArgumentValidator();
    for (const tool of tools) {
      if (!toolNamePattern.test(tool.name)) {
        throw new Error(`Tool name "${tool.name}" must be 1-64 letters, digits, "_" or "-".`);
      }
      if (this.toolsByName.has(tool.name)) throw new Error(`Tool "${tool.name}" is registered twice.`);
      // An external tool's schema is written by another extension or an MCP server: checked, not judged.
      this.argumentChecks.set(tool.name, compileSchema(tool.parameters, tool.name, { lenient: tool.risk === "external" }));
      this.toolsByName.set(tool.name, tool);
    }
  }

  get(name: string): Tool | undefined {
    return this.toolsByName.get(name);
  }

  all(): Tool[] {
    return [...this.toolsByName.values()];
  }

  checkArguments(toolName: string, args: unknown): ReturnType<ArgumentCheck> {
    const check = this.argumentChecks.get(toolName);
    if (check === undefined) throw new Error(`Tool "${toolName}" is not registered.`);
    return check(args);
  }

  /**
   * Why a tool is or is not offered; the same answer decides what is sent and which calls are refused.
   * The problem goes back to the model as the call's output, so it stays English (the panel shows the
   * call's status in the display language).
   */
  offer(tool: Tool, availability: ToolAvailability): ToolOffer {
    if (availability.disabledToolNames.has(tool.name)) {
      return { offered: false, problem: `The tool "${tool.name}" is turned off in the Relay Chat settings, so it was not run.` };
    }
    if (!availability.trusted && tool.risk !== "read") {
      return {
        offered: false,
        problem: `The tool "${tool.name}" is not available because this workspace is not trusted; only read-only tools can be used here, so it was not run.`,
      };
    }
    const inMode = modeProblem(tool, availability.mode);
    if (inMode !== null) return { offered: false, problem: inMode };
    return { offered: true };
  }

  offeredTools(availability: ToolAvailability): Tool[] {
    return this.all().filter((tool) => this.offer(tool, availability).offered);
  }

  /** The `tools` array of a request, in the flat Responses layout. */
  requestTools(availability: ToolAvailability): FunctionToolDefinition[] {
    return this.offeredTools(availability).map(toFunctionToolDefinition);
  }
}

export function toFunctionToolDefinition(tool: Tool): FunctionToolDefinition {
  // The assertion only bridges a quirk of the shared JSON types (JsonObject allows undefined members,
  // JsonValue does not); the shape is exactly FunctionToolDefinition's.
  return {
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    ...(tool.strict === undefined ? {} : { strict: tool.strict }),
  } as FunctionToolDefinition;
}
