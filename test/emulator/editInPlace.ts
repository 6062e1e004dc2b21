import type { PlannedItem } from "./outputPlan";
import { splitIntoWordDeltas } from "./tokenCounting";

// Relay Chat's edit-in-place request (src/editInPlace/editPrompt.ts), answered as a model does: a sentence, then the
// selected lines changed as asked in one fenced block. "rename A to B" renames the word everywhere in the lines
// (one change per line that uses it), "uppercase" upper-cases them, anything else adds a comment line above them.
// A follow-up (src/editInPlace/editFollowUp.ts) is answered the same way, applied to the model's last answer.

const SELECTED = /The selected lines to replace:\n(`{3,})[^\n]*\n([\s\S]*?)\1(?:\n|$)/;
const INSTRUCTION = /^Instruction: (.*)$/m;
const FOLLOW_UP = /^Follow-up instruction: (.*)$/m;
const ANSWER = /^(`{3,})([\w.+-]*)\n([\s\S]*?)\1$/;

/** The answer to an edit request or a follow-up (`lastAnswer`: the assistant's message before it), or null when the message is neither. */
export function planEditInPlace(userText: string, lastAnswer = ""): PlannedItem[] | null {
  const followUp = FOLLOW_UP.exec(userText)?.[1];
  const answered = ANSWER.exec(lastAnswer.trim());
  if (followUp !== undefined && answered) return answerWith(answered[1]!, answered[2]!, editLines(answered[3]!, followUp));
  const selected = SELECTED.exec(userText);
  const instruction = INSTRUCTION.exec(userText)?.[1];
  if (!selected || instruction === undefined) return null;
  const language = /\(language: ([\w.+-]+)\)/.exec(userText)?.[1] ?? "";
  return answerWith(selected[1]!, language, editLines(selected[2]!, instruction));
}

function answerWith(fence: string, language: string, edited: string): PlannedItem[] {
  const text = `Here is the change:\n\n${fence}${language}\n${edited}${edited.endsWith("\n") || edited === "" ? "" : "\n"}${fence}\n`;
  return [{ kind: "message", deltas: splitIntoWordDeltas(text) }];
}

function editLines(lines: string, instruction: string): string {
  const rename = /\brename (\w+) to (\w+)/i.exec(instruction);
  if (rename) return lines.replace(new RegExp(`\\b${rename[1]}\\b`, "g"), rename[2]!);
  if (/\bupper ?case\b/i.test(instruction)) return lines.toUpperCase();
  if (/\bdelete\b/i.test(instruction)) return "";
  const indent = /^[ \t]*/.exec(lines)?.[0] ?? "";
  return `${indent}// ${instruction.trim()}\n${lines}`;
}
