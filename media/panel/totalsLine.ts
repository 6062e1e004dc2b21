import type { TotalsView } from "../../src/panel/protocol";
import type { Localizer } from "./localizer";

/**
 * What the title line says about the conversation's requests, in one place: the parts shown (joined with
 * " · " by the title bar, so no separator is left over when a part is missing), and the sentence that says
 * it all exactly (tooltip and screen readers). A figure with parts unknown carries "+": "$0.0016+" is at
 * least that much, "4.8K+ in" at least that many tokens; none is shown as 0.
 */
export interface TotalsLine {
  /** "$0.0016", "≈$0.02+"; null when no request's cost is known. */
  readonly cost: string | null;
  readonly requests: string;
  /** "4.8K in · 1.4K out" for a wide panel. */
  readonly tokens: string;
  /** "6.2K tokens" for a narrow one. */
  readonly tokensShort: string;
  /** Everything exactly, for the tooltip and the accessible name. */
  readonly exact: string;
}

export function totalsLine(totals: TotalsView, localizer: Localizer): TotalsLine {
  const requests = localizer.plural(totals.requests, "{0} request", "{0} requests");
  const reported = totals.requestsWithUsage;
  const atLeast = totals.requestsWithoutUsage > 0 ? "+" : "";
  const tokens =
    reported === 0
      ? localizer.text("tokens unknown")
      : localizer.format("{0} in · {1} out", `${localizer.compact(totals.inputTokens)}${atLeast}`, `${localizer.compact(totals.outputTokens)}${atLeast}`);
  const tokensShort = reported === 0 ? tokens : localizer.format("{0} tokens", `${localizer.compact(totals.inputTokens + totals.outputTokens)}${atLeast}`);
  const exactTokens =
    reported === 0
      ? localizer.format("This conversation: {0}, tokens unknown (the relay reported no usage)", requests)
      : localizer.format(
          "This conversation: {0}, {1} input tokens ({2} cached), {3} output tokens",
          requests,
          localizer.number(totals.inputTokens),
          localizer.number(totals.cachedTokens),
          localizer.number(totals.outputTokens),
        );
  const missingUsage =
    totals.requestsWithoutUsage === 0 || reported === 0
      ? ""
      : ` ${localizer.plural(totals.requestsWithoutUsage, "({0} request without reported usage: its tokens are unknown)", "({0} requests without reported usage: their tokens are unknown)")}`;
  const cost = totals.cost ?? null;
  const withoutCost = totals.requestsWithoutCost ?? 0;
  let costText: string | null = null;
  let costSentence = "";
  if (cost !== null) {
    costText = `${localizer.money(cost.amount, cost.currency, cost.estimated)}${withoutCost > 0 ? "+" : ""}`;
    const what = cost.estimated ? localizer.text("This conversation's cost, estimated from the models' prices where the relay billed nothing") : localizer.text("This conversation's cost, as the relay billed it");
    const partial = withoutCost > 0 ? ` ${localizer.plural(withoutCost, "{0} request has no known cost.", "{0} requests have no known cost.")}` : "";
    costSentence = `${what}: ${costText}.${partial}\n`;
  }
  return { cost: costText, requests, tokens, tokensShort, exact: `${costSentence}${exactTokens}${missingUsage}` };
}
