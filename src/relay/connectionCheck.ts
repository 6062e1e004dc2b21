import { outputTextOf } from "./accumulate";
import type { RelayClient } from "./client";
import { buildResponseRequest, userMessage } from "./requestBuilder";
import type { RequestResult } from "./types";

// The relay check-up shared by the CLI's `check` and the extension's "Check Relay Connection": each
// step says what it saw and, when it fails, what to do. It sends exactly one small, possibly billed
// request (and one model list), never more.

export interface CheckStep {
  name: string;
  ok: boolean;
  /** A warning does not fail the check but deserves attention. */
  warning?: boolean;
  detail: string;
}

export interface ConnectionReport {
  ok: boolean;
  steps: CheckStep[];
  result: RequestResult | null;
}

export async function checkConnection(client: RelayClient, model: string, options: { signal?: AbortSignal } = {}): Promise<ConnectionReport> {
  const steps: CheckStep[] = [];
  steps.push({
    name: "Base URL",
    ok: true,
    warning: client.baseUrlAdjustments.length > 0,
    detail: client.baseUrlAdjustments.length > 0 ? `Using ${client.root}/v1; ${client.baseUrlAdjustments.join("; ")}.` : `Using ${client.root}/v1.`,
  });

  const models = await client.listModels(options);
  if (models.ok) {
    const listed = models.models.some((entry) => entry.id === model);
    steps.push({ name: "Models listed", ok: models.models.length > 0, detail: `${models.models.length} model(s) visible to this key.` });
    steps.push({
      name: "Model available",
      ok: listed,
      detail: listed ? `"${model}" is listed (a listed model may still lack a feature).` : `"${model}" is not in the list for this key. Pick one of: ${models.models.slice(0, 10).map((entry) => entry.id).join(", ") || "(none)"}.`,
    });
  } else {
    steps.push({ name: "Models listed", ok: false, detail: models.explanation });
  }

  const request = buildResponseRequest({ model, input: [userMessage("Reply with the single word OK.")], maxOutputTokens: 64, stream: true });
  const result = await client.send(request, options);
  const outcome = result.outcome.kind;
  steps.push({
    name: "Streamed request",
    ok: outcome === "completed" || outcome === "incomplete",
    detail: outcome === "completed" ? `Completed with ${JSON.stringify(outputTextOf(result.snapshot.output).slice(0, 60))}.` : `${outcome}: ${result.explanation ?? ""}`.trim(),
  });
  steps.push({
    name: "Terminal event",
    ok: result.snapshot.terminal !== null,
    detail: result.snapshot.terminal ? `The stream ended with ${result.snapshot.terminal}.` : "No final event arrived: this relay may cut streams, so answers could look finished when they are not.",
  });
  steps.push({
    name: "Usage reported",
    ok: result.snapshot.usage !== null,
    detail: result.snapshot.usage ? `input ${result.snapshot.usage.input_tokens ?? "?"}, output ${result.snapshot.usage.output_tokens ?? "?"} tokens.` : "The response carried no usage; costs cannot be shown per turn.",
  });
  steps.push({
    name: "Request id header",
    ok: result.requestId !== null,
    warning: result.requestId === null,
    detail: result.requestId ? `Request id ${result.requestId}.` : "No request-id header was found; add the relay's header name to the request-id header setting to match requests with the usage log.",
  });
  const ok = steps.every((step) => step.ok || step.warning === true);
  return { ok, steps, result };
}
