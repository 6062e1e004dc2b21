// Runs one prepared call to the end and always produces the function_call_output the model is waiting for.
// Everything written here goes to the model, not to the screen: it stays English in every display language.
import type { FunctionCallOutputItem } from "../relay/types";
import type { ApprovalAnswer } from "./approvalPolicy";
import { truncateOutput } from "./outputTruncation";
import type { PreparedCall, ReadyCall } from "./preparedCall";
import type { Tool, ToolCaller, ToolRunResult } from "./toolContract";
import type { ToolOffer } from "./toolRegistry";

export interface RunToolCallOptions {
  readonly signal: AbortSignal;
  /** The tool-output-size setting; longer output is cut with a visible marker. */
  readonly maxResultChars: number;
  /**
   * Applied to every result before it is cut or returned, so the relay key never reaches the model, the
   * history or the panel (see toolOutputRedaction). Without it, results are passed on unchanged.
   */
  readonly redact?: (text: string) => string;
  /**
   * Whether the tool is still offered once the user answered: the settings may have turned it off while the
   * question was open, and then the call must not run. Without it, an approved call runs.
   */
  readonly stillOffered?: (tool: Tool) => ToolOffer;
  /** The conversation and turn the call belongs to, passed on to the tool (propose_edit keys its review note by it). */
  readonly caller?: ToolCaller;
}

/**
 * What happened to a call, for the tool card: it ran (and succeeded), it ran and failed, the user denied it
 * (or the edit it proposed), or it was not run because of its arguments, because the tool is not available,
 * or because the turn was stopped before (or while) it ran.
 */
export type ToolCallOutcome = "ran" | "failed" | "denied" | "invalid_arguments" | "unavailable" | "stopped" | "stopped_while_running";

export interface ToolCallResult {
  readonly output: FunctionCallOutputItem;
  readonly outcome: ToolCallOutcome;
}

const aborted = Symbol("aborted");

/** Never throws for anything a tool or the approval step does: every path ends in an output for the model. */
export async function runToolCall(
  prepared: PreparedCall,
  approve: (call: ReadyCall) => Promise<ApprovalAnswer>,
  options: RunToolCallOptions,
): Promise<ToolCallResult> {
  const redact = options.redact ?? ((text: string) => text);
  const reply = (output: string, outcome: ToolCallOutcome): ToolCallResult => ({
    output: { type: "function_call_output", call_id: prepared.call_id, output: truncateOutput(redact(output), options.maxResultChars).text },
    outcome,
  });

  if (prepared.status === "rejected") return reply(prepared.problem, prepared.reason);
  const toolName = prepared.tool.name;
  if (options.signal.aborted) return reply(cancelledBeforeRunning(toolName), "stopped");

  let answer: ApprovalAnswer | typeof aborted;
  try {
    answer = await untilAborted(approve(prepared), options.signal);
  } catch (error) {
    return reply(`Error: the call to "${toolName}" was not run because approval could not be obtained (${errorMessage(error)}).`, "failed");
  }
  if (answer === aborted) return reply(cancelledBeforeRunning(toolName), "stopped");
  if (answer === "deny") {
    return reply(
      `The user declined to run "${toolName}" with these arguments, so it was not run. ` +
        `Do not retry the same call; continue without it or ask the user how to proceed.`,
      "denied",
    );
  }
  const offer = options.stillOffered?.(prepared.tool);
  if (offer !== undefined && !offer.offered) return reply(`Error: ${offer.problem}`, "unavailable");

  let result: string | ToolRunResult | typeof aborted;
  try {
    result = await untilAborted(prepared.tool.run(prepared.args, options.signal, options.caller), options.signal);
  } catch (error) {
    if (options.signal.aborted) return reply(cancelledWhileRunning(toolName), "stopped_while_running");
    return reply(`Error: ${errorMessage(error)}`, "failed");
  }
  if (result === aborted) return reply(cancelledWhileRunning(toolName), "stopped_while_running");
  return reply(outputText(result), outcomeOf(result));
}

/**
 * The outcome of a call saved before outcomes were recorded, read back from the text the model was told (the
 * sentences above and the tools' own). Anything unrecognised that is not an error counts as ran.
 */
export function outcomeFromOutputText(status: "ready" | "rejected", output: string): ToolCallOutcome {
  if (status === "rejected") return /no tool named|not available|turned off/.test(output) ? "unavailable" : "invalid_arguments";
  if (/^The user declined to run /.test(output) || /^The user rejected the edit/.test(output)) return "denied";
  if (/cancelled by the user before it ran/.test(output)) return "stopped";
  if (/cancelled by the user while it was running/.test(output)) return "stopped_while_running";
  return /^Error:/.test(output) ? "failed" : "ran";
}

function outcomeOf(result: string | ToolRunResult): ToolCallOutcome {
  if (typeof result === "string") return "ran";
  if (result.isError === true) return "failed";
  return result.declined === true ? "denied" : "ran";
}

function outputText(result: string | ToolRunResult): string {
  const text = typeof result === "string" ? result : result.output;
  const isError = typeof result !== "string" && result.isError === true;
  if (isError) return text.startsWith("Error:") ? text : `Error: ${text}`;
  // An empty output reads to a model like a lost message; say that there was nothing.
  return text === "" ? "(the tool produced no output)" : text;
}

function cancelledBeforeRunning(toolName: string): string {
  return `The call to "${toolName}" was cancelled by the user before it ran; nothing was done.`;
}

function cancelledWhileRunning(toolName: string): string {
  return `The call to "${toolName}" was cancelled by the user while it was running; it may have been partly carried out and its result is unknown.`;
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** Resolves with the value, or with `aborted` as soon as the signal fires, whichever comes first. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | typeof aborted> {
  // The work keeps going after an abort; swallow its late failure so it cannot become an unhandled rejection.
  work.catch(() => undefined);
  return new Promise<T | typeof aborted>((resolve, reject) => {
    if (signal.aborted) return resolve(aborted);
    const onAbort = (): void => resolve(aborted);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
