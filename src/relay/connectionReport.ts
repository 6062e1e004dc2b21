import type { CheckStatus } from "./checkStep";
import type { ConnectionReport } from "./connectionCheck";

// The check-up's report as people read it: plain lines for the terminal, Markdown for the file kept in the
// extension's storage, HTML for the editor's report view (the only one of them that can carry a button: a Markdown
// preview runs no command links). The caller removes the key (redactSecrets) before showing any of them.

export type Localize = (english: string, ...args: Array<string | number>) => string;

const TERMINAL_MARKS: Record<CheckStatus, string> = { ok: "ok  ", warning: "warn", failed: "FAIL", skipped: "skip" };

/** The steps and the verdict; the billing note is printed before the check starts. */
export function connectionReportLines(report: ConnectionReport): string[] {
  return [
    ...report.steps.map((step) => `${TERMINAL_MARKS[step.status]}  ${step.name}: ${step.detail}`),
    report.ok ? "The relay looks usable." : "The relay check failed; see the lines marked FAIL.",
  ];
}

export interface ReportContext {
  relay: string;
  model: string;
  keySource: string;
  checkedAt: Date;
}

function statusWordsIn(localize: Localize): Record<CheckStatus, string> {
  return {
    ok: unbreakable(localize("ok")),
    warning: unbreakable(localize("warning")),
    failed: unbreakable(localize("FAILED")),
    skipped: unbreakable(localize("skipped")),
  };
}

function titleOf(report: ConnectionReport, localize: Localize): string {
  return report.ok ? localize("Relay check: usable") : localize("Relay check: problems found");
}

function contextLine(context: ReportContext, localize: Localize): string {
  return localize("Relay: {0} · model: {1} · key from {2} · {3}", context.relay, context.model, context.keySource, context.checkedAt.toISOString());
}

function streamingNote(localize: Localize): string {
  return localize("Only non-streamed function calls arrive intact: set relayChat.stream to false for this relay.");
}

/** The finding that the model needs Chat Completions, in words; the confirmation itself is a button of the report view. */
function chatCompletionsFinding(model: string, localize: Localize): string {
  return localize('"{0}" answers over Chat Completions, not the Responses interface. Nothing changes until you confirm the switch: Use Chat Completions for this model (here, in the Relay Chat panel or in the notification), or set the protocol in Model settings….', model);
}

export function connectionReportMarkdown(report: ConnectionReport, context: ReportContext, localize: Localize): string {
  const statusWords = statusWordsIn(localize);
  const lines = [
    `# ${titleOf(report, localize)}`,
    "",
    contextLine(context, localize),
    "",
    `> ${report.billingNote}`,
    "",
    `| ${localize("Step")} | ${localize("Result")} | ${localize("Details")} |`,
    "|---|---|---|",
    ...report.steps.map((step) => `| ${cell(stepName(step.name, localize))} | **${statusWords[step.status]}** | ${cell(step.detail)} |`),
    "",
  ];
  if (report.suggestStreamingOff) lines.push(streamingNote(localize), "");
  if (report.protocolFinding === "chat") lines.push(`## ${localize("Confirm the switch")}`, "", chatCompletionsFinding(context.model, localize), "");
  return lines.join("\n");
}

/** The Chat Completions finding's state in the report view: the link its button runs, or that it was confirmed. */
export interface ReportConfirmation {
  /** A `command:` link that saves the switch; null once it is confirmed. */
  href: string | null;
  /** The relay's name as in the picker. */
  relay: string;
}

/** The report as the body of the editor's report view: escaped text, the finding's button where there is one. */
export function connectionReportHtml(report: ConnectionReport, context: ReportContext, localize: Localize, confirmation: ReportConfirmation | null): string {
  const statusWords = statusWordsIn(localize);
  const rows = report.steps.map((step) => `<tr class="${step.status}"><td>${escapeHtml(stepName(step.name, localize))}</td><td><strong>${escapeHtml(statusWords[step.status])}</strong></td><td>${escapeHtml(step.detail)}</td></tr>`);
  const parts = [
    `<h1>${escapeHtml(titleOf(report, localize))}</h1>`,
    `<p>${escapeHtml(contextLine(context, localize))}</p>`,
    `<blockquote>${escapeHtml(report.billingNote)}</blockquote>`,
    `<table><thead><tr><th>${escapeHtml(localize("Step"))}</th><th>${escapeHtml(localize("Result"))}</th><th>${escapeHtml(localize("Details"))}</th></tr></thead><tbody>${rows.join("")}</tbody></table>`,
  ];
  if (report.suggestStreamingOff) parts.push(`<p>${escapeHtml(streamingNote(localize))}</p>`);
  if (report.protocolFinding === "chat" && confirmation) {
    parts.push(`<h2>${escapeHtml(localize("Confirm the switch"))}</h2>`);
    parts.push(
      confirmation.href === null
        ? `<p class="done">${escapeHtml(localize("{0} on {1} now uses Chat Completions (relayChat.modelSettings).", context.model, confirmation.relay))}</p>`
        : `<p>${escapeHtml(chatCompletionsFinding(context.model, localize))}</p><p><a class="button" href="${escapeHtml(confirmation.href)}">${escapeHtml(localize("Use Chat Completions for this model"))}</a></p>`,
    );
  }
  return parts.join("\n");
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/**
 * A word the preview's table may not break inside. Between two Chinese characters a line may break anywhere,
 * so a narrow Result column beside long details would stack "正常" one character per line; a word joiner
 * (U+2060, invisible) between non-ASCII characters forbids those breaks. ASCII words break only at spaces anyway.
 */
function unbreakable(word: string): string {
  return word.replace(/([^\x00-\x7f])(?=[^\x00-\x7f])/g, "$1\u2060");
}

/** Table cells hold one line; a `|` would end the cell early. */
function cell(text: string): string {
  return text.replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();
}

/** A step's name in the reader's language; the names themselves stay English (they identify the steps). */
function stepName(name: string, localize: Localize): string {
  switch (name) {
    case "Base URL":
      return localize("Base URL");
    case "Models listed":
      return localize("Models listed");
    case "Model available":
      return localize("Model available");
    case "Streamed request":
      return localize("Streamed request");
    case "Final event":
      return localize("Final event");
    case "Usage reported":
      return localize("Usage reported");
    case "Request id header":
      return localize("Request id header");
    case "Function call, streamed":
      return localize("Function call, streamed");
    case "Function call, not streamed":
      return localize("Function call, not streamed");
    case "Function calls":
      return localize("Function calls");
    case "Chat Completions":
      return "Chat Completions";
    case "Instructions":
      return localize("Instructions");
    case "Reasoning effort":
      return localize("Reasoning effort");
    default:
      return name;
  }
}
