// propose_edit: the model proposes a change to one file; the user sees it in the diff editor and decides.
// Approving the tool call only said "the model may propose"; the diff is the look at the concrete change.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { splitLines } from "../textFileContent";
import type { TextReplacement } from "../textEdits";
import { applyTextEdits } from "../textEdits";
import type { Tool, ToolRunResult } from "../toolContract";
import { defineTool } from "../toolContract";
import { workspaceDisplayPath } from "../workspaceDisplayPath";
import { openVerified } from "../verifiedOpen";
import { resolveInsideWorkspace } from "../workspacePaths";
import type { ProposalDocuments } from "./proposalDocuments";

export interface ProposeEditArguments {
  path: string;
  new_text?: string;
  edits?: TextReplacement[];
}

/** Resolves true to apply. Injectable because a modal dialog cannot be clicked from a test. */
export type ConfirmApply = (shownPath: string, detail: string) => Promise<boolean>;

export interface ProposeEditToolOptions {
  workspaceFolders(): readonly string[];
  readonly documents: ProposalDocuments;
  readonly confirmApply?: ConfirmApply;
}

export const askWithModalDialog: ConfirmApply = async (shownPath, detail) => {
  const apply = vscode.l10n.t("Apply");
  return (await vscode.window.showInformationMessage(vscode.l10n.t("Apply the proposed edit to {0}?", shownPath), { modal: true, detail }, apply)) === apply;
};

// The tool's results below (applied, rejected, nothing changed) go back to the model, not to the user's
// screen, so they stay English whatever the display language.

export function createProposeEditTool(options: ProposeEditToolOptions): Tool {
  return defineTool<ProposeEditArguments>({
    name: "propose_edit",
    description:
      "Propose a change to one workspace file. The user reviews it in a diff and applies or rejects it; applied changes " +
      "are left unsaved in the editor. Give either new_text (the complete new content; also creates a new file) or " +
      "edits: search/replace pairs where each old_text is copied exactly from the current file and occurs there exactly once.",
    risk: "write",
    argumentRoles: { path: "path" },
    // "Exactly one of new_text and edits" is checked in run, not with oneOf: some services reject combinators at
    // the top of a function's schema.
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", minLength: 1, description: "File path relative to the workspace folder." },
        new_text: { type: "string", description: "The complete new content of the file." },
        edits: {
          type: "array",
          minItems: 1,
          description: "Replacements, each located in the current file (not in the result of earlier ones); they must not overlap.",
          items: {
            type: "object",
            properties: {
              old_text: { type: "string", minLength: 1, description: "Exact current text, occurring once in the file; include surrounding lines to make it unique." },
              new_text: { type: "string", description: "Text to put in its place." },
            },
            required: ["old_text", "new_text"],
            additionalProperties: false,
          },
        },
      },
      required: ["path"],
      additionalProperties: false,
    },
    run: (args, signal) => proposeEdit(options, args, signal),
  });
}

async function proposeEdit(options: ProposeEditToolOptions, args: ProposeEditArguments, signal: AbortSignal): Promise<string | ToolRunResult> {
  const fail = (output: string): ToolRunResult => ({ output, isError: true });
  if ((args.new_text === undefined) === (args.edits === undefined)) {
    return fail("Give exactly one of new_text (the complete new content) and edits (search/replace pairs); nothing was changed.");
  }
  const folders = options.workspaceFolders();
  const resolved = await resolveInsideWorkspace(folders, args.path);
  if (!resolved.ok) return fail(`${resolved.problem} Nothing was changed.`);
  // The folder as VS Code was given it, so an open editor of the file is the document that gets edited.
  const uri = vscode.Uri.file(path.join(resolved.folder, resolved.relativePath));
  const shown = workspaceDisplayPath(folders, uri.fsPath) ?? resolved.relativePath;

  let document: vscode.TextDocument | undefined;
  if (resolved.exists) {
    if (!(await fs.stat(resolved.absolutePath)).isFile()) return fail(`"${args.path}" is not a file; nothing was changed.`);
    try {
      document = await vscode.workspace.openTextDocument(uri);
    } catch (error) {
      return fail(`The file ${shown} cannot be opened as text (${(error as Error).message}); nothing was changed.`);
    }
  } else if (args.edits !== undefined) {
    return fail(`The file ${shown} does not exist, so there is nothing to search and replace; to create it, give its complete content as new_text.`);
  }

  // The open document, unsaved changes included, is what the user sees and what the edit replaces.
  const original = document?.getText() ?? "";
  const versionReviewed = document?.version;
  let proposed: string;
  if (args.edits !== undefined) {
    const result = applyTextEdits(original, args.edits);
    if (!result.ok) return fail(`The edit to ${shown} was not applied: ${result.problem} Nothing was changed.`);
    proposed = result.text;
  } else {
    proposed = args.new_text ?? "";
  }
  if (document !== undefined && proposed === original) return fail(`The proposed content of ${shown} is the same as its current content; nothing to change.`);
  signal.throwIfAborted();

  // What is on disk now, to see after the review whether another program wrote the file meanwhile: the editor
  // may not have reloaded it yet, and then neither its version nor its text shows the change.
  const diskBefore = resolved.exists ? await diskContent(resolved.absolutePath, shown) : null;
  const summary = describeChange(original, proposed, document === undefined, args.edits?.length, englishOnly);
  const shownSummary = describeChange(original, proposed, document === undefined, args.edits?.length, vscode.l10n.t);
  const confirmed = await reviewInDiffEditor(options, { uri, exists: document !== undefined, relativePath: resolved.relativePath, shown, proposed, shownSummary });
  if (!confirmed) return { output: "The user rejected the edit; nothing changed.", declined: true };
  // The call may have been cancelled while the dialog was open; a cancelled call must not change anything.
  if (signal.aborted) return fail("The call was cancelled before the edit was applied; nothing changed.");

  // The path must still lead where it led when the change was computed: a folder on the way may have been
  // replaced by a link to somewhere else while the dialog was open.
  const again = await resolveInsideWorkspace(folders, args.path);
  if (!again.ok || again.absolutePath !== resolved.absolutePath) {
    return fail(`${shown} now resolves to a different place than when the edit was reviewed, so it was not applied; nothing changed.`);
  }
  const edit = new vscode.WorkspaceEdit();
  if (document !== undefined) {
    // The version alone is not enough: a document closed and opened again counts from 1 again, and an edit undone
    // leaves a new version with the old text. What was reviewed is the text, so the text must be the same.
    const current = document.isClosed ? await vscode.workspace.openTextDocument(uri) : document;
    const sameVersion = current !== document || document.version === versionReviewed;
    const diskAfter = await diskContent(resolved.absolutePath, shown);
    const diskChanged = diskBefore === null || diskAfter === null || !diskBefore.equals(diskAfter);
    if (!sameVersion || current.getText() !== original || diskChanged) {
      return fail(`${shown} changed while the edit was being reviewed, so it was not applied; nothing changed. Read the file again.`);
    }
    edit.replace(uri, new vscode.Range(current.positionAt(0), current.positionAt(original.length)), proposed);
  } else {
    if (await pathExists(resolved.absolutePath)) return fail(`${shown} was created while the edit was being reviewed, so it was not applied; nothing changed.`);
    edit.createFile(uri, { ignoreIfExists: true });
    edit.insert(uri, new vscode.Position(0, 0), proposed);
  }
  // Through a WorkspaceEdit rather than the file system, so the change lands in the editor's undo history.
  if (!(await vscode.workspace.applyEdit(edit))) return fail(`VS Code did not apply the edit to ${shown}; nothing changed.`);
  await vscode.window.showTextDocument(uri, { preview: false });
  return `Applied the edit to ${shown} (${summary}). It is not saved: the change is open in the editor for the user to review, undo or save.`;
}

interface Review {
  readonly uri: vscode.Uri;
  readonly exists: boolean;
  readonly relativePath: string;
  readonly shown: string;
  readonly proposed: string;
  /** What changes, in the display language, for the dialog. */
  readonly shownSummary: string;
}

async function reviewInDiffEditor(options: ProposeEditToolOptions, review: Review): Promise<boolean> {
  const { documents } = options;
  const current = review.exists ? review.uri : documents.add("", review.relativePath, "new-file");
  const proposed = documents.add(review.proposed, review.relativePath, "proposed");
  try {
    const name = path.posix.basename(review.shown);
    const title = review.exists ? vscode.l10n.t("{0}: current ↔ proposed (Relay Chat)", name) : vscode.l10n.t("{0}: new file ↔ proposed (Relay Chat)", name);
    await vscode.commands.executeCommand("vscode.diff", current, proposed, title, { preview: true });
    const detail = vscode.l10n.t("{0}. The change is shown in the diff editor. Applying leaves the file unsaved, so it can be undone.", review.shownSummary);
    return await (options.confirmApply ?? askWithModalDialog)(review.shown, detail);
  } finally {
    await closeDiffTabs(proposed);
    documents.remove(proposed);
    if (current !== review.uri) documents.remove(current);
  }
}

async function closeDiffTabs(proposed: vscode.Uri): Promise<void> {
  const key = proposed.toString();
  const tabs = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === key);
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
}

type Localize = (english: string, ...args: Array<string | number>) => string;

/** For the model's result: English whatever the display language. */
const englishOnly: Localize = (english, ...args) => english.replace(/\{(\d+)\}/g, (match, index: string) => String(args[Number(index)] ?? match));

/** The size of the change, in the model's English (`englishOnly`) or the user's language (`vscode.l10n.t`). */
function describeChange(original: string, proposed: string, isNewFile: boolean, editCount: number | undefined, localize: Localize): string {
  const lineCount = (text: string): number => (text === "" ? 0 : splitLines(text).length);
  if (isNewFile) return localize("new file, {0} lines", lineCount(proposed));
  const before = lineCount(original);
  const after = lineCount(proposed);
  if (editCount === undefined) return localize("whole content replaced, {0} → {1} lines", before, after);
  return editCount === 1 ? localize("1 replacement, {0} → {1} lines", before, after) : localize("{0} replacements, {1} → {2} lines", editCount, before, after);
}

/** The file's bytes, read through a verified handle; null when it cannot be read as the file that was checked. */
async function diskContent(absolutePath: string, shown: string): Promise<Buffer | null> {
  const opened = await openVerified(absolutePath, shown);
  if (!opened.ok) return null;
  try {
    return await opened.handle.readFile();
  } catch {
    return null;
  } finally {
    await opened.handle.close();
  }
}

async function pathExists(absolutePath: string): Promise<boolean> {
  try {
    await fs.lstat(absolutePath);
    return true;
  } catch {
    return false;
  }
}
