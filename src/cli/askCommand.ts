import { requestCost } from "../chat/cost";
import type { RequestCost } from "../chat/requestRecordParts";
import { functionCallsOf, outputTextOf, refusalTextOf } from "../relay/accumulate";
import { isResponsesRefusal } from "../relay/chatCompletions/protocolRefusal";
import type { RelayClient } from "../relay/client";
import type { ModelPrice } from "../relay/modelPrice";
import { sentModelSettings } from "../chat/modelRequestOptions";
import type { ModelSettings } from "../chat/modelSettings";
import { buildResponseRequest, userMessage } from "../relay/requestBuilder";
import type { InstructionsAs } from "../relay/requestBuilder";
import type { RelayEvent, RequestResult } from "../relay/types";
import { receiptLine } from "./receipt";

export interface AskOptions {
  model: string;
  /** The wire: /v1/responses unless "chat" (/v1/chat/completions). */
  protocol?: "responses" | "chat";
  prompt: string;
  stream: boolean;
  maxOutputTokens: number | null;
  json: boolean;
  /** The model's price for the cost estimate, asked for beside the request; absent or null: unknown. */
  price?: Promise<ModelPrice | null>;
  /** What the model is told (cliInstructions.ts); absent: nothing. */
  instructions?: { text: string; sources: string[] };
  /** The model's own settings (--model-settings, --reasoning-effort, --temperature); its cap is already in maxOutputTokens. */
  modelSettings?: ModelSettings;
  /** Where the instructions go: the `instructions` field, or a developer message for a relay that drops it. */
  instructionsAs?: InstructionsAs;
}

export interface CliOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** Sends one prompt; returns the process exit code, 0 only for a `completed` response. */
export async function runAsk(client: RelayClient, options: AskOptions, output: CliOutput, signal: AbortSignal): Promise<number> {
  const request = buildResponseRequest({
    model: options.model,
    instructions: options.instructions?.text,
    instructionsAs: options.instructionsAs,
    input: [userMessage(options.prompt)],
    maxOutputTokens: options.maxOutputTokens,
    reasoningEffort: options.modelSettings?.reasoningEffort,
    temperature: options.modelSettings?.temperature,
    stream: options.stream,
  });
  let printedText = false;
  const onEvents = (events: readonly RelayEvent[]) => {
    if (options.json) return;
    // Written as each chunk arrives, unbuffered, as the spec asks of command-line clients.
    let text = "";
    for (const event of events) if (event.type === "response.output_text.delta" && typeof event.delta === "string") text += event.delta;
    if (text) {
      output.stdout(text);
      printedText = true;
    }
  };
  const result = await client.send(request, { signal, onEvents, ...(options.protocol === "chat" ? { protocol: "chat" as const } : {}) });
  const cost = requestCost(result, (await options.price) ?? null);
  // The model has no Responses interface on this relay: the way out is one flag (nothing is sent again on its own).
  const protocolHint = options.protocol !== "chat" && isResponsesRefusal(result.outcome) ? CHAT_PROTOCOL_HINT : null;
  if (options.json) {
    const json = askJson(result, cost);
    if (protocolHint) json.message = [json.message, protocolHint].filter(Boolean).join(" ");
    output.stdout(`${JSON.stringify({ ...json, protocol: options.protocol ?? "responses", instructionSources: options.instructions?.sources ?? [], sentWith: sentModelSettings(options.modelSettings) ?? null })}\n`);
  } else {
    if (!printedText) output.stdout(outputTextOf(result.snapshot.output));
    output.stdout("\n");
    const refusal = refusalTextOf(result.snapshot.output);
    if (refusal) output.stdout(`refused: ${refusal}\n`);
    if (result.outcome.kind !== "completed" && outputTextOf(result.snapshot.output) !== "") output.stderr("(partial answer: the text above is what arrived before it stopped)\n");
    for (const call of functionCallsOf(result.snapshot.output)) output.stderr(`function call proposed: ${call.name}(${call.arguments}) call_id ${call.call_id}\n`);
    if (result.explanation) output.stderr(`${result.explanation}\n`);
    if (protocolHint) output.stderr(`${protocolHint}\n`);
    output.stderr(`${receiptLine(result, cost)}${options.protocol === "chat" ? " · Chat Completions" : ""}\n`);
  }
  return result.outcome.kind === "completed" ? 0 : 1;
}

const CHAT_PROTOCOL_HINT = "This model refuses the Responses interface on this relay: ask again with --protocol chat to send it over Chat Completions (/v1/chat/completions).";

function askJson(result: RequestResult, cost: RequestCost): Record<string, unknown> {
  const outcome = result.outcome;
  const reason =
    outcome.kind === "incomplete" ? outcome.reason : outcome.kind === "failed" || outcome.kind === "error_event" || outcome.kind === "http_error" || outcome.kind === "network_error" ? outcome.code : null;
  const text = outputTextOf(result.snapshot.output);
  return {
    outcome: outcome.kind,
    status: result.snapshot.status,
    reason,
    message: result.explanation,
    text,
    /** True when `text` is what arrived of an answer that did not complete. */
    partial: outcome.kind !== "completed" && text !== "",
    /** What the model refused, in its words; null when it refused nothing. */
    refusal: refusalTextOf(result.snapshot.output) || null,
    functionCalls: functionCallsOf(result.snapshot.output),
    outputTypes: result.snapshot.output.map((item) => item.type),
    // Null when the relay reported none, or only zeros for a non-empty answer: unknown, never 0.
    usage: result.usage,
    cost,
    ...(result.snapshot.usage !== null && result.usage !== result.snapshot.usage ? { reportedUsage: result.snapshot.usage } : {}),
    omittedStreamedItems: result.snapshot.omittedStreamedItems,
    /** Events that could not be read: the answer may be missing what they held. */
    unreadableEvents: result.snapshot.unreadableEventCount,
    /** Seconds the relay asked to wait before sending again (Retry-After); null when it did not say. */
    retryAfterSeconds: result.retryAfterSeconds,
    requestId: result.requestId,
    requestIds: result.requestIds,
    responseId: result.snapshot.responseId,
    httpStatus: result.httpStatus,
  };
}
