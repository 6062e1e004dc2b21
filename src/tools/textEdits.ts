// The search/replace form of an edit: each old text names one place in the file, so a model can change a few
// lines without resending the whole file, and a wrong guess about the file fails loudly instead of landing elsewhere.

export interface TextReplacement {
  readonly old_text: string;
  readonly new_text: string;
}

export type TextEditResult = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly problem: string };

/**
 * Every old text is looked up in the original (not in the result of earlier edits), must occur exactly once and
 * must not overlap another; otherwise nothing is applied and the problem names the edit. Line breaks in the edits
 * are converted to the file's own when it uses CRLF, because models write "\n" whatever the file has.
 */
export function applyTextEdits(original: string, edits: readonly TextReplacement[]): TextEditResult {
  if (edits.length === 0) return { ok: false, problem: "No edits were given." };
  const lineBreak = original.includes("\r\n") ? "\r\n" : "\n";
  const toFileLineBreaks = (text: string): string => (lineBreak === "\n" ? text : text.replace(/\r?\n/g, lineBreak));
  const several = edits.length > 1;

  const located: { start: number; end: number; replacement: string; number: number }[] = [];
  for (const [index, edit] of edits.entries()) {
    const label = several ? `Edit ${index + 1}: ` : "";
    const oldText = toFileLineBreaks(edit.old_text);
    if (oldText === "") return { ok: false, problem: `${label}old_text is empty; give the exact text to replace.` };
    const occurrences = countOccurrences(original, oldText);
    if (occurrences === 0) {
      return {
        ok: false,
        problem: `${label}old_text was not found in the file. It must match the current file exactly, including whitespace and indentation; read the file again and copy the text.`,
      };
    }
    if (occurrences > 1) {
      return {
        ok: false,
        problem: `${label}old_text occurs ${occurrences} times in the file; include more of the surrounding lines so it matches exactly once.`,
      };
    }
    const start = original.indexOf(oldText);
    located.push({ start, end: start + oldText.length, replacement: toFileLineBreaks(edit.new_text), number: index + 1 });
  }

  located.sort((a, b) => a.start - b.start);
  for (let index = 1; index < located.length; index++) {
    const previous = located[index - 1] as (typeof located)[number];
    const current = located[index] as (typeof located)[number];
    if (current.start < previous.end) {
      const [first, second] = [previous.number, current.number].sort((a, b) => a - b);
      return { ok: false, problem: `Edits ${first} and ${second} overlap in the file; merge them into one edit.` };
    }
  }

  let text = "";
  let position = 0;
  for (const edit of located) {
    text += original.slice(position, edit.start) + edit.replacement;
    position = edit.end;
  }
  return { ok: true, text: text + original.slice(position) };
}

/** Counts overlapping occurrences too: "aa" in "aaa" is ambiguous, so it counts as two. */
function countOccurrences(text: string, search: string): number {
  let count = 0;
  for (let index = text.indexOf(search); index !== -1; index = text.indexOf(search, index + 1)) count++;
  return count;
}
