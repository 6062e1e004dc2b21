import type { CheckStatus, ConnectionReport } from "./connectionCheck";

// The check-up's report as people read it: plain lines for the terminal, Markdown for the editor's
// preview. The caller removes the key (redactSecrets) before showing either.

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

export function connectionReportMarkdown(report: ConnectionReport, context: ReportContext, localize: Localize): string {
  const statusWords: Record<CheckStatus, string> = {
    ok: unbreakable(localize("ok")),
    warning: unbreakable(localize("warning")),
    failed: unbreakable(localize("FAILED")),
    skipped: unbreakable(localize("skipped")),
  };
  const lines = [
    `# ${report.ok ? localize("Relay check: usable") : localize("Relay check: problems found")}`,
    "",
    localize("Relay: {0} · model: {1} · key from {2} · {3}", context.relay, context.model, context.keySource, context.checkedAt.toISOString()),
    "",
    `> ${report.billingNote}`,
    "",
    `| ${localize("Step")} | ${localize("Result")} | ${localize("Details")} |`,
    "|---|---|---|",
    ...report.steps.map((step) => `| ${cell(stepName(step.name, localize))} | **${statusWords[step.status]}** | ${cell(step.detail)} |`),
    "",
  ];
  if (report.suggestStreamingOff) lines.push(localize("Only non-streamed function calls arrive intact: set relayChat.stream to false for this relay."), "");
  return lines.join("\n");
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
