import type { ReceiptView } from "../../src/panel/protocol";
import { button, element, formatCount, formatDuration } from "./dom";
import type { Localizer } from "./localizer";

export interface ReceiptHandlers {
  copyRequestId(requestId: string): void;
  copyCurl(receiptIndex: number): void;
}

/**
 * What one HTTP request of a turn cost and how it ended: the facts a user needs to check a bill or to
 * quote a request id to the relay's operator.
 */
export function renderReceipt(
  receipt: ReceiptView,
  receiptIndex: number,
  receiptCount: number,
  otherItemKinds: readonly string[],
  localizer: Localizer,
  handlers: ReceiptHandlers,
): HTMLElement {
  const facts: string[] = [];
  if (receiptCount > 1) facts.push(localizer.format("Request {0} of {1}", receiptIndex + 1, receiptCount));
  facts.push(receipt.outcomeLabel);
  if (receipt.model) facts.push(receipt.model);
  const usage = receipt.usage;
  if (usage === null) {
    facts.push(localizer.text("usage not reported"));
  } else {
    facts.push(localizer.format("input {0} tokens (cached {1})", formatCount(usage.inputTokens), formatCount(usage.cachedTokens)));
    facts.push(localizer.format("output {0} tokens (reasoning {1})", formatCount(usage.outputTokens), formatCount(usage.reasoningTokens)));
  }
  facts.push(localizer.format("latency {0}", formatDuration(receipt.latencyMs)));
  if (receipt.firstByteMs !== null) facts.push(localizer.format("first byte {0}", formatDuration(receipt.firstByteMs)));

  const requestIdLine = element("div", { className: "receipt-request-id" }, [
    element("span", { text: `${localizer.text("Request id")}: ` }),
    element("code", { text: receipt.requestId ?? localizer.text("none (the relay sent no request id)") }),
  ]);
  const buttons = element("div", { className: "receipt-buttons" }, [
    receipt.requestId === null
      ? null
      : button(localizer.text("Copy request id"), () => handlers.copyRequestId(receipt.requestId ?? ""), { className: "secondary" }),
    button(localizer.text("Copy as curl"), () => handlers.copyCurl(receiptIndex), { className: "secondary" }),
  ]);
  const region = element(
    "div",
    { className: "receipt", attributes: { role: "region", "aria-label": localizer.text("Turn details") } },
    [element("div", { className: "receipt-facts", text: facts.join(" · ") }), requestIdLine, buttons],
  );
  // Output the panel does not render still cost tokens; naming it explains the usage numbers.
  if (otherItemKinds.length > 0 && receiptIndex === receiptCount - 1) {
    region.insertBefore(element("div", { className: "receipt-other-items", text: localizer.format("Not shown: {0}", otherItemKinds.join(", ")) }), buttons);
  }
  return region;
}
