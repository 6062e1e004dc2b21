import * as l10n from "@vscode/l10n";
import type { RequestCost } from "../chat/requestRecordParts";
import { preferredCost } from "../chat/cost";
import { formatMoney } from "../relay/moneyFormat";
import type { RequestResult } from "../relay/types";
import { usageFigure } from "../relay/usage";

// The receipt of an edit in place, one line as the panel's receipt reads: tokens, cost, the relay's request id.
// Unknown figures say so; they are never shown as 0.

export function editReceipt(result: Pick<RequestResult, "usage" | "requestId" | "snapshot">, cost: RequestCost, locale = "en-US"): string {
  const input = usageFigure(result.usage, "input_tokens");
  const output = usageFigure(result.usage, "output_tokens");
  const tokens = input === null && output === null ? l10n.t("tokens unknown") : l10n.t("{0} in · {1} out", input ?? "?", output ?? "?");
  const money = preferredCost(cost);
  const costText = money === null ? l10n.t("cost unknown") : money.estimated ? l10n.t("about {0}", formatMoney(money.amount, money.currency, locale)) : formatMoney(money.amount, money.currency, locale);
  const model = result.snapshot.model ?? "";
  return [model, tokens, costText, l10n.t("request id {0}", result.requestId ?? l10n.t("none"))].filter((part) => part !== "").join(" · ");
}
