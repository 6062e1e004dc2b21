import * as l10n from "@vscode/l10n";
import type { NextRequestView } from "./nextRequest";

// The text of "What the model is told": the next request's instructions exactly as sent, where they travel on
// the wire, each part with its source and estimate, and the tools offered in the request's order. Made from
// the panel state's one assembly (nextRequest.ts), so it is the request, not a second account of it.

/** The Markdown document; `next` is the panel state's next request. */
export function instructionsDocument(next: NextRequestView): string {
  const instructions = next.instructions;
  const rows = (instructions?.parts ?? []).map((part) => {
    const note = part.left ? l10n.t("left out: the total limit was reached") : part.cut ? l10n.t("cut: {0} of {1} characters sent", part.cut.keptChars, part.cut.totalChars) : "";
    return `| ${tableCell(part.source)} | ${part.tokens} | ${note} |`;
  });
  const text = instructions?.text ?? "";
  const fence = "`".repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((match) => match[0].length + 1)));
  const redacted = (instructions?.parts ?? []).filter((part) => part.redacted).map((part) => part.source);
  const notes = [
    ...(next.rulesAllowed ? [] : [l10n.t("This workspace is not trusted: its project rules files are not sent.")]),
    ...(next.rulesOff.length === 0 ? [] : [l10n.t("Switched off for this conversation (not sent): {0}", next.rulesOff.join(", "))]),
    ...(next.command === null ? [] : [l10n.t("With the slash command the message starts with: {0}", next.command.prompt.source)]),
    ...(redacted.length === 0 ? [] : [l10n.t("A relay key was found in {0} and replaced with [REDACTED]: the key is not sent.", redacted.join(", "))]),
  ];
  return [
    `# ${l10n.t("What the model is told")}`,
    destination(next),
    instructions === null ? l10n.t("No instructions are sent.") : carrierSentence(next),
    l10n.t("About {0} tokens: {1} of instructions and {2} of tool definitions, counted by the context meter and the spend estimate. The request log records the sources and a hash, not the text.", next.tokens, instructions?.tokens ?? 0, next.toolTokens),
    ...notes,
    ...(rows.length === 0 ? [] : [[`| ${l10n.t("Source")} | ${l10n.t("Tokens (estimated)")} | |`, "|---|---:|---|", ...rows].join("\n")]),
    `## ${l10n.t("Instructions")}`,
    `${fence}text\n${text}\n${fence}`,
    `## ${l10n.t("Tools offered ({0})", next.tools.length)}`,
    next.tools.length === 0 ? l10n.t("No tools are offered with this request.") : next.tools.map((tool) => `- \`${tool.name}\`${tool.description ? `: ${firstLine(tool.description)}` : ""}`).join("\n"),
  ].join("\n\n");
}

function destination(next: NextRequestView): string {
  const wire = next.wire === "chat" ? "Chat Completions" : "Responses";
  return next.relay === null ? l10n.t("Sent with your next message in the Relay Chat panel to {0}, over {1}.", next.model, wire) : l10n.t("Sent with your next message in the Relay Chat panel to {0} on {1}, over {2}.", next.model, next.relay, wire);
}

function carrierSentence(next: NextRequestView): string {
  switch (next.carrier) {
    case "instructions":
      return l10n.t("The instructions below go in the request's instructions field.");
    case "developer":
      return l10n.t('The instructions below go first in the input, as a developer message: this relay drops the instructions field ("instructionsAs": "developer" in relayChat.relays).');
    case "system":
      return l10n.t("The instructions below go as the first message, a system message: this model is sent over Chat Completions.");
  }
}

function tableCell(text: string): string {
  return text.replace(/\|/g, "\\|");
}

function firstLine(text: string): string {
  return text.split("\n")[0].trim();
}
