import { answerTextOf } from "./answerText";
import { summaryText } from "./compaction";
import type { Conversation, Turn } from "./conversation";
import { activePath } from "./conversation";
import { attachedTextOf, titleOf, typedTextOf } from "./conversationSummary";
import type { Localize } from "./outcomeLabel";
import { englishText, outcomeLabel } from "./outcomeLabel";
import { tasksOf, turnModeOf } from "./planState";
import type { TaskItem } from "../tools/updateTasksTool";
import { doneCount } from "../tools/updateTasksTool";

// The branch on screen as a Markdown document a person reads, named by what was typed first (titleOf: never the
// attachments' tags). Item kinds the client does not render
// (reasoning, unknown ones) are left out; the JSON export has them exactly as sent. A message's images
// are links into a folder written beside the document (`imageFolder`), under their stored names. A message
// sent in Plan mode says so beside "You", as the panel marks it; the task list ends the document as it stands.

export function conversationToMarkdown(conversation: Conversation, localize: Localize = englishText, imageFolder = "images"): string {
  const started = new Date(conversation.createdAt).toISOString();
  const lines: string[] = [`# ${oneLine(titleOf(conversation))}`, "", localize("Model: {0} · Started: {1}", conversation.model, started), ""];
  for (const turn of activePath(conversation)) lines.push(...turnLines(turn, localize, imageFolder));
  lines.push(...taskListLines(tasksOf(conversation), localize));
  return `${lines.join("\n").trimEnd()}\n`;
}

function turnLines(turn: Turn, localize: Localize, imageFolder: string): string[] {
  const plan = turnModeOf(turn) === "plan";
  const lines = plan ? [`## ${localize("You")} · ${localize("Plan")}`, "", `*${localize("Sent in Plan mode: read-only tools, asked for a plan")}*`, ""] : [`## ${localize("You")}`, ""];
  // What the person typed, then what was attached as the model got it, fenced: its tags are not Markdown.
  const typed = typedTextOf(turn.userText);
  const attached = attachedTextOf(turn.userText);
  if (typed !== "") lines.push(typed, "");
  if (attached !== "") lines.push(`*${localize("Attached, as sent to the model:")}*`, "", fenced(attached, ""), "");
  const images = turn.images ?? [];
  // Relative links, encoded: the folder is named after the document, which may have spaces.
  if (images.length > 0) lines.push(images.map((name, index) => `![${localize("Image {0}", index + 1)}](${encodeURIComponent(imageFolder)}/${name})`).join(" "), "");
  if (turn.reviewNote) lines.push(`${localize("Sent with this message: what you did with the model's changes to files")}`, "", fenced(turn.reviewNote, ""), "");
  for (const call of turn.toolCalls) {
    lines.push(`**${localize("Tool call")}** \`${call.name}\``, "", fenced(call.arguments || "{}", "json"), "", localize("Result:"), "", fenced(call.output.output, ""), "");
  }
  lines.push(`## ${localize("Assistant")}`, "");
  if (turn.outcome.kind !== "completed") {
    const notCompleted = localize("Not completed: {0}.", outcomeLabel(turn.outcome, localize));
    lines.push(`> **${notCompleted}** ${localize("This answer (what arrived of it) is kept for reading only and is not sent with later messages.")}`);
    if (turn.notice) lines.push(`> ${oneLine(turn.notice)}`);
    lines.push("");
  }
  const answer = answerTextOf(turn);
  if (answer !== "") lines.push(answer, "");
  const summary = summaryText(turn.summary);
  if (turn.summary && summary !== null) {
    // The turns above stay for the reader; later requests were sent this summary in their place.
    lines.push(`## ${localize("Summary of the {0} turns above", turn.summary.replacedTurns)}`, "", `> ${localize("Later requests were sent this summary instead of the turns above.")}`, "", summary, "");
  }
  return lines;
}

/** The conversation's task list (update_tasks, the person's ticks) as a Markdown task list; nothing when there is none. */
function taskListLines(tasks: readonly TaskItem[], localize: Localize): string[] {
  if (tasks.length === 0) return [];
  const items = tasks.map((task) => `- [${task.status === "done" ? "x" : " "}] ${oneLine(task.text)}${task.status === "in_progress" ? ` (${localize("in progress")})` : ""}`);
  return [`## ${localize("Task list")} (${localize("{0}/{1} done", doneCount(tasks), tasks.length)})`, "", ...items, ""];
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
