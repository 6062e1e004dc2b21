import { parseErrorBody } from "./errorClassifier";
import type { RequestOutcome } from "./types";

// Which request parameter a model refused, when the relay says so in a 400: OpenAI's `param` ("reasoning.effort",
// "temperature") with `unsupported_parameter` / `unsupported_value`, their messages ("Unsupported parameter:
// 'temperature' is not supported with this model.", "Unsupported value: 'reasoning.effort' does not support 'low'
// with this model."), Chat Completions' names (`reasoning_effort`, `max_completion_tokens`) and the wording of
// providers behind relays ("does not support Function Calling"). Only the parameters a person can change for one
// model are named, so the panel can offer exactly that setting; sending the same request again would fail the same way.

/** A refused parameter, by what sets it: the model's reasoning effort, temperature, output cap, or the tools sent. */
export type RejectedParameter = "reasoning_effort" | "temperature" | "max_output_tokens" | "tools";

export interface ParameterRejection {
  parameter: RejectedParameter;
  /** The value the relay quoted as refused ("low"), when it did. */
  value: string | null;
}

const PARAMETER_NAMES: ReadonlyArray<[RegExp, RejectedParameter]> = [
  [/^reasoning(\.effort|_effort)?$/i, "reasoning_effort"],
  [/^temperature$/i, "temperature"],
  [/^max_(output_|completion_)?tokens$/i, "max_output_tokens"],
  [/^(tools|tool_choice|functions|parallel_tool_calls)\b/i, "tools"],
];

/** The words providers use when the whole feature is refused and no parameter is named. */
const TOOLS_REFUSED = /\b(does not|doesn't) support (function calling|tools|tool use|tool calls)\b|\b(function calling|tool use|tools) (is|are) not supported\b/i;

/** The parameter a failed request's outcome says the model refused; null for any other failure. */
export function rejectedParameterOf(outcome: RequestOutcome): ParameterRejection | null {
  if (outcome.kind === "http_error") return outcome.status === 400 || outcome.status === 422 ? fromError(outcome.body, outcome.message) : null;
  // An error inside the stream (a `failed` response, an error event) can say the same.
  if (outcome.kind === "failed" || outcome.kind === "error_event") return outcome.code && /^unsupported_(parameter|value)$/.test(outcome.code) ? fromError("", outcome.message) : null;
  return null;
}

function fromError(body: string, message: string): ParameterRejection | null {
  const parsed = parseErrorBody(body);
  const said = `${message} ${parsed?.message ?? ""}`;
  const named = parsed?.param ?? /Unsupported (?:parameter|value): '([^']+)'/i.exec(said)?.[1] ?? /'([a-z_.]+)' is not supported/i.exec(said)?.[1] ?? null;
  const parameter = named === null ? null : (PARAMETER_NAMES.find(([pattern]) => pattern.test(named))?.[1] ?? null);
  if (parameter !== null) return { parameter, value: /does not support '([^']+)'/i.exec(said)?.[1] ?? null };
  return TOOLS_REFUSED.test(said) ? { parameter: "tools", value: null } : null;
}
