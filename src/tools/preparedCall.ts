// Checks a proposed function call before anyone is asked about it: a rejected call never reaches the user.
import type { FunctionCallProposal, JsonObject } from "../relay/types";
import type { ToolAvailability } from "./approvalPolicy";
import type { Tool } from "./toolContract";
import type { ToolRegistry } from "./toolRegistry";

export type PreparedCall =
  | { readonly status: "ready"; readonly call_id: string; readonly tool: Tool; readonly args: JsonObject }
  | {
      readonly status: "rejected";
      readonly call_id: string;
      readonly name: string;
      readonly problem: string;
      /** unavailable: no such tool, or not offered here; invalid_arguments: not JSON, not an object, or against the schema. */
      readonly reason: "unavailable" | "invalid_arguments";
    };

export type ReadyCall = Extract<PreparedCall, { status: "ready" }>;
export type RejectedCall = Extract<PreparedCall, { status: "rejected" }>;

export function prepareCall(proposal: FunctionCallProposal, registry: ToolRegistry, availability: ToolAvailability): PreparedCall {
  const reject = (problem: string, reason: RejectedCall["reason"] = "invalid_arguments"): RejectedCall => ({
    status: "rejected",
    call_id: proposal.call_id,
    name: proposal.name,
    problem,
    reason,
  });

  const tool = registry.get(proposal.name);
  if (tool === undefined) {
    const known = registry.offeredTools(availability).map((offered) => offered.name);
    const choices = known.length > 0 ? ` Available tools: ${known.join(", ")}.` : " No tools are available.";
    return reject(`Error: there is no tool named "${proposal.name}", so nothing was run.${choices}`, "unavailable");
  }

  const offer = registry.offer(tool, availability);
  if (!offer.offered) return reject(`Error: ${offer.problem}`, "unavailable");

  const parsed = parseArguments(proposal.arguments);
  if (!parsed.ok) return reject(`Error: the arguments for "${tool.name}" ${parsed.problem}, so nothing was run. Send the arguments as one JSON object.`);

  const check = registry.checkArguments(tool.name, parsed.args);
  if (!check.valid) {
    return reject(`Error: invalid arguments for "${tool.name}", so nothing was run: ${check.problems.join("; ")}.`);
  }
  return { status: "ready", call_id: proposal.call_id, tool, args: parsed.args };
}

function parseArguments(text: string): { ok: true; args: JsonObject } | { ok: false; problem: string } {
  // Models send an empty string for tools without parameters; that means "no arguments", not a mistake.
  if (text.trim() === "") return { ok: true, args: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `are not valid JSON (${(error as Error).message})` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, problem: `must be a JSON object, not ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}` };
  }
  return { ok: true, args: value as JsonObject };
}
