import type { ReceiptView, SentWithView, TurnView } from "../../src/panel/protocol";
import { button, element, formatDuration, uniqueId, visuallyHidden } from "./dom";
import { icon, iconButton } from "./icons";
import type { Localizer } from "./localizer";
import { toneOf } from "./turnState";
import type { TurnTone } from "./turnState";

export interface ReceiptHandlers {
  copyRequestId(requestId: string): void;
  copyCurl(receiptIndex: number): void;
  /** The details were opened or closed (the turn keeps that when its receipt is drawn again). */
  toggled(expanded: boolean): void;
}

const outcomeIcons: Record<TurnTone, string> = { none: "pass", neutral: "circle-slash", warning: "warning", error: "error" };

const purposeLabels: Record<string, string> = {
  send: "your message",
  tool_follow_up: "after tool results",
  continue: "Continue",
  retry_larger: "retry with a larger output budget",
  summarize: "summary of earlier turns",
};

/**
 * What a turn cost and how it ended, as one quiet line (outcome, tokens, time, the request id to quote to
 * the relay's operator), expanding to one entry per HTTP request: the follow-up after a tool call, a
 * Continue or a Retry each have their own. Usage the relay did not report is "unknown", never 0.
 */
export function renderTurnReceipt(turn: TurnView, localizer: Localizer, handlers: ReceiptHandlers, expanded = false): HTMLElement {
  const receipts = turn.receipts;
  const last = receipts[receipts.length - 1];
  const detailsId = uniqueId("receipt-details");
  // The details (one entry of facts and buttons per request, about 25 elements) are built when first shown:
  // every turn has a receipt and few are opened, so a long conversation opens and a live session grows lighter.
  const details = element("div", { className: "receipt-details", attributes: { id: detailsId } });
  const fillDetails = () => {
    if (details.firstChild !== null) return;
    details.append(
      ...receipts.map((receipt, index) => renderRequest(receipt, index, receipts.length, localizer, handlers)),
      ...(turn.otherItemKinds.length > 0 ? [element("div", { className: "receipt-other-items", text: localizer.format("Not shown: {0}", turn.otherItemKinds.join(", ")) })] : []),
    );
  };
  const toggle = iconButton("chevron-down", localizer.text("Show request details"), () => show(details.hidden), "receipt-toggle");
  toggle.setAttribute("aria-controls", detailsId);
  const show = (open: boolean) => {
    if (open) fillDetails();
    details.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    toggle.classList.toggle("expanded", open);
    handlers.toggled(open);
    // Opened at the bottom edge, the details would unfold out of sight: bring them into view.
    if (open) details.scrollIntoView({ block: "nearest" });
  };
  if (expanded) fillDetails();
  details.hidden = !expanded;
  toggle.setAttribute("aria-expanded", String(expanded));
  toggle.classList.toggle("expanded", expanded);

  const line = element("div", { className: "receipt-line" }, [
    // The outcome as an icon; its words are for screen readers and the tooltip (a turn that did not
    // complete says how it ended above the line, in its state box).
    element("span", { className: `receipt-outcome tone-${toneOf(turn.outcome)}`, attributes: { title: turn.outcomeLabel } }, [
      icon(outcomeIcons[toneOf(turn.outcome)]),
      visuallyHidden(turn.outcomeLabel),
    ]),
    costOf(receipts, localizer),
    ...tokenParts(receipts, localizer),
    element("span", { className: "receipt-latency", text: formatDuration(sum(receipts.map((receipt) => receipt.latencyMs))) }),
    sentWithOf(last, localizer),
    receipts.length > 1 ? element("span", { className: "receipt-count", text: localizer.plural(receipts.length, "{0} request", "{0} requests") }) : null,
    last?.requestId
      ? element("span", { className: "receipt-request-id" }, [
          element("code", { text: last.requestId, attributes: { title: localizer.text("Request id") } }),
          iconButton("copy", localizer.text("Copy request id"), () => handlers.copyRequestId(last.requestId ?? "")),
        ])
      : element("span", { className: "receipt-request-id missing", text: localizer.text("no request id") }),
    element("span", { className: "spacer" }),
    toggle,
  ]);
  return element("section", { className: "turn-receipt", attributes: { role: "region", "aria-label": localizer.text("Turn details") } }, [line, details]);
}

function renderRequest(receipt: ReceiptView, index: number, count: number, localizer: Localizer, handlers: ReceiptHandlers): HTMLElement {
  const usage = receipt.usage;
  const unknown = localizer.text("unknown");
  const tokens = (value: number | null | undefined) => (value === null || value === undefined ? unknown : localizer.plural(value, "{0} token", "{0} tokens"));
  const rows: Array<[string, string]> = [
    [localizer.text("Outcome"), receipt.outcomeLabel],
    ...(receipt.relay ? ([[localizer.text("Relay"), receipt.relay]] as Array<[string, string]>) : []),
    [localizer.text("Model"), receipt.model],
    ...(receipt.protocol === "chat" ? ([[localizer.text("Interface"), "Chat Completions"]] as Array<[string, string]>) : []),
    [localizer.text("Cost"), costDetail(receipt, localizer)],
    [localizer.text("Input"), usage === null ? localizer.text("usage not reported") : `${tokens(usage.inputTokens)} · ${localizer.format("{0} cached", usage.cachedTokens === null ? unknown : localizer.number(usage.cachedTokens))}`],
    [localizer.text("Output"), usage === null ? localizer.text("usage not reported") : `${tokens(usage.outputTokens)} · ${localizer.format("{0} reasoning", usage.reasoningTokens === null ? unknown : localizer.number(usage.reasoningTokens))}`],
    [localizer.text("Latency"), receipt.firstByteMs === null ? formatDuration(receipt.latencyMs) : localizer.format("{0} (first byte {1})", formatDuration(receipt.latencyMs), formatDuration(receipt.firstByteMs))],
    [localizer.text("Request id"), receipt.requestId ?? localizer.text("none (the relay sent no request id)")],
    ...(receipt.sentWith ? ([[localizer.text("Model settings"), sentWithText(receipt.sentWith, localizer)]] as Array<[string, string]>) : []),
    ...(receipt.note ? ([[localizer.text("Note"), receipt.note]] as Array<[string, string]>) : []),
  ];
  const known = Object.prototype.hasOwnProperty.call(purposeLabels, receipt.purpose) ? purposeLabels[receipt.purpose] : undefined;
  const purpose = known === undefined ? receipt.purpose : localizer.text(known);
  return element("div", { className: "receipt-request" }, [
    element("div", { className: "receipt-request-title", text: count > 1 ? localizer.format("Request {0} of {1}: {2}", index + 1, count, purpose) : purpose }),
    element(
      "dl",
      { className: "receipt-facts" },
      rows.flatMap(([term, value]) => [element("dt", { text: term }), element("dd", { text: value })]),
    ),
    element("div", { className: "receipt-buttons" }, [button(localizer.text("Copy as curl"), () => handlers.copyCurl(index), { className: "secondary small" })]),
  ]);
}

/** "effort low · temp 0.2 · max 4000 · no tools": what the model's own settings sent, when they sent anything. */
export function sentWithText(sent: SentWithView, localizer: Localizer): string {
  return [
    sent.reasoningEffort === undefined ? null : localizer.format("effort {0}", sent.reasoningEffort),
    sent.temperature === undefined ? null : localizer.format("temp {0}", sent.temperature),
    sent.maxOutputTokens === undefined ? null : localizer.format("max {0}", sent.maxOutputTokens),
    sent.noTools ? localizer.text("no tools") : null,
  ]
    .filter((part) => part !== null)
    .join(" · ");
}

/** The newest request's per-model settings on the receipt line (the model's settings, changed in Model settings…). */
function sentWithOf(receipt: ReceiptView | undefined, localizer: Localizer): HTMLElement | null {
  if (!receipt?.sentWith) return null;
  const text = sentWithText(receipt.sentWith, localizer);
  if (text === "") return null;
  return element("span", { className: "receipt-sent-with", text, attributes: { title: localizer.format("Sent with this model's settings: {0}", text) } });
}

/**
 * What the turn's requests cost, first on the line so it stays in view in a narrow panel: billed where the
 * relay said, "≈" an estimate from prices, "+" when a request's cost is unknown. Nothing when no cost is known.
 */
function costOf(receipts: readonly ReceiptView[], localizer: Localizer): HTMLElement | null {
  const known = receipts.map((receipt) => receipt.cost ?? null).filter((cost): cost is NonNullable<ReceiptView["cost"]> => cost !== null);
  const currency = known[0]?.currency;
  if (currency === undefined) return null;
  const same = known.filter((cost) => cost.currency === currency);
  const amount = same.reduce((total, cost) => total + cost.amount, 0);
  const estimated = same.some((cost) => cost.estimated);
  const partial = same.length < receipts.length;
  const text = `${localizer.money(amount, currency, estimated)}${partial ? "+" : ""}`;
  const title = estimated ? localizer.text("Estimated from the model's price") : localizer.text("Billed by the relay");
  return element("span", { className: "receipt-cost", text, attributes: { title: partial ? `${title}. ${localizer.text("Some requests have no known cost.")}` : title } });
}

function costDetail(receipt: ReceiptView, localizer: Localizer): string {
  const cost = receipt.cost;
  if (!cost) return localizer.text("unknown (no price for this model)");
  if (cost.estimated) return localizer.format("{0} (estimated from the model's price)", localizer.money(cost.amount, cost.currency, true));
  const billed = localizer.format("{0} (billed by the relay)", localizer.money(cost.amount, cost.currency));
  return cost.estimatedAmount === null || cost.estimatedAmount === undefined ? billed : `${billed} · ${localizer.format("{0} estimated", localizer.money(cost.estimatedAmount, cost.currency, true))}`;
}

/**
 * "1.2K in · 345 out" over the turn's requests, and "(+1 request without usage)" as a part of its own, so a
 * narrow line wraps between them; "tokens unknown" where the relay reported no usage.
 */
function tokenParts(receipts: readonly ReceiptView[], localizer: Localizer): HTMLElement[] {
  const reported = receipts.filter((receipt) => receipt.usage !== null);
  if (receipts.length === 0) return [];
  if (reported.length === 0) return [element("span", { className: "receipt-tokens", text: localizer.text("tokens unknown") })];
  const input = sum(reported.map((receipt) => receipt.usage?.inputTokens ?? null));
  const output = sum(reported.map((receipt) => receipt.usage?.outputTokens ?? null));
  const summary = localizer.format("{0} in · {1} out", input === null ? localizer.text("unknown") : localizer.compact(input), output === null ? localizer.text("unknown") : localizer.compact(output));
  const missing = receipts.length - reported.length;
  return [
    element("span", { className: "receipt-tokens", text: summary }),
    missing === 0 ? null : element("span", { className: "receipt-tokens-missing", text: localizer.plural(missing, "(+{0} request without usage)", "(+{0} requests without usage)") }),
  ].filter((part): part is HTMLElement => part !== null);
}

function sum(values: ReadonlyArray<number | null>): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : known.reduce((total, value) => total + value, 0);
}
