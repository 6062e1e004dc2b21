import type { EmulatorProfile } from "./profiles";
import type { WireEvent } from "./responseEvents";

// The billed cost relays report with an answer: OpenRouter puts `usage.cost` (credits = US dollars) into
// the final event and the whole body; a LiteLLM proxy sends `x-litellm-response-cost` on a non-streamed
// answer and, in a stream (whose headers leave before the answer is priced), `usage.cost` in the final
// event. The emulator's credits convert to dollars at new-api's default rate, so estimates from the
// emulator's published prices equal what it bills.

/** Emulator credits (new-api "quota") per US dollar: new-api's default `quota_per_unit`. */
export const CREDITS_PER_USD = 500_000;

const FINAL_EVENTS = new Set(["response.completed", "response.incomplete", "response.failed"]);

/** The events, the non-streamed body and the extra headers of an answer, with the profile's billed cost added. */
export function withBilledCost(
  profile: EmulatorProfile,
  answer: { events: WireEvent[]; body: unknown; streamed: boolean },
  costUsd: number,
): { events: WireEvent[]; body: unknown; headers: Record<string, string> } {
  if (profile === "openrouter") return { events: answer.events.map((event) => eventWithCost(event, costUsd)), body: responseWithCost(answer.body, costUsd), headers: {} };
  if (profile === "litellm") {
    return answer.streamed
      ? { events: answer.events.map((event) => eventWithCost(event, costUsd)), body: answer.body, headers: {} }
      : { events: answer.events, body: answer.body, headers: { "x-litellm-response-cost": String(costUsd) } };
  }
  return { events: answer.events, body: answer.body, headers: {} };
}

function eventWithCost(event: WireEvent, costUsd: number): WireEvent {
  return FINAL_EVENTS.has(event.type) ? { ...event, response: responseWithCost(event.response, costUsd) } : event;
}

function responseWithCost(response: unknown, costUsd: number): unknown {
  if (typeof response !== "object" || response === null) return response;
  const usage = (response as { usage?: unknown }).usage;
  if (typeof usage !== "object" || usage === null) return response;
  return { ...response, usage: { ...usage, cost: costUsd } };
}
