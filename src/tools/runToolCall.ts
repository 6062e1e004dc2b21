// Runs one prepared call to the end and always produces the function_call_output the model is waiting for.
import type { FunctionCallOutputItem } from "../relay/types";
import type { ApprovalAnswer } from "./approvalPolicy";
import { truncateOutput } from "./outputTruncation";
import type { PreparedCall, ReadyCall } from "./preparedCall";
import type { ToolRunResult } from "./toolContract";

export interface RunToolCallOptions {
  readonly signal: AbortSignal;
  /** The tool-output-size setting; longer output is cut with a visible marker. */
  readonly maxResultChars: number;
}

const aborted = Symbol("aborted");

/** Never throws for anything a tool or the approval step does: every path ends in an output for the model. */
export async function runToolCall(
  prepared: PreparedCall,
  approve: (call: ReadyCall) => Promise<ApprovalAnswer>,
  options: RunToolCallOptions,
): Promise<FunctionCallOutputItem> {
  const reply = (output: string): FunctionCallOutputItem => ({
    type: "function_call_output",
    call_id: prepared.call_id,
    output: truncateOutput(output, options.maxResultChars).text,
  });

  if (prepared.status === "rejected") return reply(prepared.problem);
  const toolName = prepared.tool.name;
  if (options.signal.aborted) return reply(cancelledBeforeRunning(toolName));

  let answer: ApprovalAnswer | typeof aborted;
  try {
    answer = await untilAborted(approve(prepared), options.signal);
  } catch (error) {
    return reply(`Error: the call to "${toolName}" was not run because approval could not be obtained (${errorMessage(error)}).`);
  }
  if (answer === aborted) return reply(cancelledBeforeRunning(toolName));
  if (answer === "deny") {
    return reply(
      `The user declined to run "${toolName}" with these arguments, so it was not run. ` +
        `Do not retry the same call; continue without it or ask the user how to proceed.`,
    );
  }

  let result: string | ToolRunResult | typeof aborted;
  try {
    result = await untilAborted(prepared.tool.run(prepared.args, options.signal), options.signal);
  } catch (error) {
    if (options.signal.aborted) return reply(cancelledWhileRunning(toolName));
    return reply(`Error: ${errorMessage(error)}`);
  }
  if (result === aborted) return reply(cancelledWhileRunning(toolName));
  return reply(outputText(result));
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
