import type { Conversation, Turn, TurnOutcome } from "./conversation";
import { activePath } from "./conversation";
import { titleOf } from "./conversationSummary";
import { answerTextOf } from "./historyItems";

// The branch on screen as a Markdown document a person reads. Item kinds the client does not render
// (reasoning, unknown ones) are left out; the JSON export has them exactly as sent.

export function conversationToMarkdown(conversation: Conversation): string {
  const lines: string[] = [`# ${oneLine(titleOf(conversation))}`, "", `Model: ${conversation.model} · Started: ${new Date(conversation.createdAt).toISOString()}`, ""];
  for (const turn of activePath(conversation)) lines.push(...turnLines(turn));
  return `${lines.join("\n").trimEnd()}\n`;
}

function turnLines(turn: Turn): string[] {
  const lines = ["## You", "", turn.userText, ""];
  for (const call of turn.toolCalls) {
    lines.push(`**Tool call** \`${call.name}\``, "", fenced(call.arguments || "{}", "json"), "", "Result:", "", fenced(call.output.output, ""), "");
  }
  lines.push("## Assistant", "");
  if (turn.outcome.kind !== "completed") {
    lines.push(`> **Not completed: ${describeOutcome(turn.outcome)}.** This answer is kept for reading only and is not sent with later messages.`);
    if (turn.notice) lines.push(`> ${oneLine(turn.notice)}`);
    lines.push("");
  }
  const answer = answerTextOf(turn);
  if (answer !== "") lines.push(answer, "");
  return lines;
}

export function describeOutcome(outcome: TurnOutcome): string {
  switch (outcome.kind) {
    case "incomplete":
      return `incomplete (${outcome.reason ?? "no reason given"})`;
    case "failed":
    case "error_event":
      return `${outcome.kind === "failed" ? "failed" : "error during the stream"} (${outcome.code ?? "no code"}: ${outcome.message})`;
    case "interrupted":
      return "interrupted (the connection closed before the answer finished)";
    case "timed_out":
      return "timed out";
    case "cancelled":
      return "cancelled";
    case "http_error":
      return `HTTP ${outcome.status}${outcome.code ? ` (${outcome.code})` : ""}`;
    case "network_error":
      return `network error (${outcome.message})`;
    case "tool_round_limit":
      return `stopped after ${outcome.rounds} tool rounds`;
    case "in_progress":
      return "still in progress";
    case "not_finished":
      return "not finished";
    case "completed":
      return "completed";
  }
}

/** A fence longer than any backtick run inside, so tool output cannot close it early. */
function fenced(text: string, language: string): string {
  const longestRun = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longestRun + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
