import { answerTextOf } from "./answerText";
import type { Conversation, Turn } from "./conversation";
import { activePath } from "./conversation";
import { titleOf } from "./conversationSummary";
import type { Localize } from "./outcomeLabel";
import { englishText, outcomeLabel } from "./outcomeLabel";

// The branch on screen as a Markdown document a person reads. Item kinds the client does not render
// (reasoning, unknown ones) are left out; the JSON export has them exactly as sent.

export function conversationToMarkdown(conversation: Conversation, localize: Localize = englishText): string {
  const lines: string[] = [`# ${oneLine(titleOf(conversation))}`, "", `Model: ${conversation.model} · Started: ${new Date(conversation.createdAt).toISOString()}`, ""];
  for (const turn of activePath(conversation)) lines.push(...turnLines(turn, localize));
  return `${lines.join("\n").trimEnd()}\n`;
}

function turnLines(turn: Turn, localize: Localize): string[] {
  const lines = ["## You", "", turn.userText, ""];
  for (const call of turn.toolCalls) {
    lines.push(`**Tool call** \`${call.name}\``, "", fenced(call.arguments || "{}", "json"), "", "Result:", "", fenced(call.output.output, ""), "");
  }
  lines.push("## Assistant", "");
  if (turn.outcome.kind !== "completed") {
    lines.push(`> **Not completed: ${outcomeLabel(turn.outcome, localize)}.** This answer (what arrived of it) is kept for reading only and is not sent with later messages.`);
    if (turn.notice) lines.push(`> ${oneLine(turn.notice)}`);
    lines.push("");
  }
  const answer = answerTextOf(turn);
  if (answer !== "") lines.push(answer, "");
  return lines;
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
