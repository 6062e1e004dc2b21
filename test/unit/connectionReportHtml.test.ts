// The check-up's report as its view shows it (src/host/checkUp/connectionReportView.ts): the same text as the Markdown
// file, escaped, and the Chat Completions finding's confirmation as one command link, which VS Code's Markdown
// preview could not run. After the confirmation the report says it is done; without a finding there is no link.
import assert from "node:assert/strict";
import type { ConnectionReport } from "../../src/relay/connectionCheck";
import { connectionReportHtml, connectionReportMarkdown } from "../../src/relay/connectionReport";

const english = (text: string, ...args: Array<string | number>) => text.replace(/\{(\d+)\}/g, (_, index: string) => String(args[Number(index)]));
const context = { relay: "Split <relay> (http://127.0.0.1/v1)", model: "deepseek-chat", keySource: "secret-storage", checkedAt: new Date(0) };
const found: ConnectionReport = {
  ok: true,
  billingNote: "This check sends small requests.",
  result: null,
  suggestStreamingOff: false,
  protocolFinding: "chat",
  steps: [
    { name: "Streamed request", status: "warning", detail: 'Refused over the Responses interface (http_error: "<b>not implemented</b>").' },
    { name: "Chat Completions", status: "ok", detail: "The same request over Chat Completions worked." },
  ],
};
const link = "command:relayChat.useChatCompletions?%5B%7B%22relay%22%3A%22Split%22%2C%22model%22%3A%22deepseek-chat%22%7D%5D";

describe("the check-up's report view", () => {
  it("escapes what the relay sent, and carries the confirmation as one command link", () => {
    const html = connectionReportHtml(found, context, english, { href: link, relay: "Split" });
    assert.ok(html.includes("&lt;b&gt;not implemented&lt;/b&gt;"), html);
    assert.ok(html.includes("Split &lt;relay&gt;"), html);
    assert.ok(!html.includes("<b>"), "nothing the relay sent becomes markup");
    assert.equal(html.match(/<a /g)?.length, 1);
    assert.ok(html.includes(`<a class="button" href="${link}">Use Chat Completions for this model</a>`), html);
  });

  it("says the switch is done once it is confirmed, without the link", () => {
    const html = connectionReportHtml(found, context, english, { href: null, relay: "Split" });
    assert.match(html, /deepseek-chat on Split now uses Chat Completions/);
    assert.ok(!html.includes("<a "), html);
  });

  it("has no confirmation without a finding, and the Markdown copy says how to confirm in words", () => {
    const html = connectionReportHtml({ ...found, protocolFinding: null }, context, english, { href: link, relay: "Split" });
    assert.ok(!html.includes("<a ") && !html.includes("Confirm the switch"), html);
    const markdown = connectionReportMarkdown(found, context, english);
    assert.match(markdown, /## Confirm the switch\n\n"deepseek-chat" answers over Chat Completions, not the Responses interface\. Nothing changes until you confirm/);
    assert.ok(!markdown.includes("command:"), "the Markdown preview would not run a command link");
  });
});
