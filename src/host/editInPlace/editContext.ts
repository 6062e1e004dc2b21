import * as vscode from "vscode";
import type { NewAttachment } from "../../panel/context/messageAttachments";
import { limitedAttachment } from "../../panel/context/messageAttachments";
import type { WorkspaceFiles } from "../../panel/context/workspaceFiles";
import type { ContextRequest, WorkspaceContextSource } from "../../panel/panelServices";
import { redactSecrets } from "../../relay/redact";

// `#` context of an edit in place, as in the panel's message box: `#problems` (the Problems of the file being
// edited), `#terminal` (the active terminal's last command), `#changes` (the working tree's git changes) and
// `#path` (a file of the workspace) in the instruction add that context to the request, gathered by the panel's
// own builders (src/host/context/workspaceContext.ts, src/panel/context/workspaceFiles.ts). The quick input offers
// them as `#` is typed; an instruction passed to the command is read the same way. A `#word` that names none of them
// (`#123`) is left as typed.

export interface EditContextSources {
  workspaceContext: WorkspaceContextSource;
  files: WorkspaceFiles;
  secrets: () => readonly string[];
}

/** The `#` words that stand for the editor's context rather than a file, with what each gathers. */
export const EDIT_CONTEXT_KINDS: readonly { word: string; source: ContextRequest["source"]; label: () => string }[] = [
  { word: "problems", source: "problemsInFile", label: () => vscode.l10n.t("Problems of this file") },
  { word: "terminal", source: "terminal", label: () => vscode.l10n.t("The active terminal's last command and its output") },
  { word: "changes", source: "changes", label: () => vscode.l10n.t("The git changes of the working tree") },
];

const CONTEXT_WORD = /(?<=^|\s)#([^\s#]+)/g;

/** The context the instruction's `#` words name, and what could not be gathered (said to the person). */
export async function editContext(instruction: string, sources: EditContextSources): Promise<{ attachments: NewAttachment[]; problems: string[] }> {
  const attachments: NewAttachment[] = [];
  const problems: string[] = [];
  const words = [...new Set([...instruction.matchAll(CONTEXT_WORD)].map((match) => match[1]!))];
  for (const word of words) {
    const kind = EDIT_CONTEXT_KINDS.find((each) => each.word === word.toLowerCase());
    const result = kind ? await sources.workspaceContext.attachment({ source: kind.source }) : await sources.files.attachment(word);
    if (result.ok) attachments.push(limitedAttachment({ ...result.attachment, text: redactSecrets(result.attachment.text, sources.secrets()) }));
    // A word that is neither a kind nor a listed file is the person's own text; a file that could not be read is said.
    else if (kind || (await sources.files.search(word, 1))[0]?.path === word) problems.push(result.problem);
  }
  return { attachments, problems };
}

/** The `#` word being typed at the end of the input, or null. */
export function typedContextWord(value: string): string | null {
  return /(?:^|\s)#([^\s#]*)$/.exec(value)?.[1] ?? null;
}
