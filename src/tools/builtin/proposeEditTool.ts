// propose_edit: the model proposes a change to one file. Approving the call lets the change into the file's
// editor for review: each changed part is kept or undone there (src/host/review/editReview.ts), and Relay Chat saves
// nothing before the person has decided.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { splitLines } from "../textFileContent";
import type { TextReplacement } from "../textEdits";
import { applyTextEdits } from "../textEdits";
import type { ProposedChange } from "../editPreview";
import type { Tool, ToolCaller, ToolRunResult } from "../toolContract";
import { defineTool } from "../toolContract";
import { workspaceDisplayPath } from "../workspaceDisplayPath";
import { resolveInsideWorkspace } from "../workspacePaths";

export interface ProposeEditArguments {
  path: string;
  new_text?: string;
  edits?: TextReplacement[];
}

/** Where proposed edits are reviewed; resolves once the change is in the editor, before anything is decided. */
export interface EditReviewer {
  /**
   * `fromModel`: the model proposed it (propose_edit), so the outcome of its review is told to the model later:
   * to the conversation `conversationId` only (none: told to no conversation).
   */
  propose(uri: vscode.Uri, proposed: string, options: { createsFile: boolean; fromModel?: boolean; conversationId?: string }): Promise<{ changes: number }>;
}

export interface ProposeEditToolOptions {
  workspaceFolders(): readonly string[];
  readonly review: EditReviewer;
}

// The tool's results below (in review, nothing changed) go back to the model, not to the user's screen, so
// they stay English whatever the display language.

export function createProposeEditTool(options: ProposeEditToolOptions): Tool {
  return defineTool<ProposeEditArguments>({
    name: "propose_edit",
    description:
      "Propose a change to one workspace file. It goes into the file's editor, where the user keeps or undoes each changed " +
      "part; the file is saved once every part is decided. Give either new_text (the complete new content; also creates a new file) or " +
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
    run: (args, signal, caller) => proposeEdit(options, args, signal, caller),
    previewChange: (args) => previewEdit(options, args),
  });
}

/** The file's text now and with the change, or why the change cannot be made (a sentence for the model). */
type PreparedEdit =
  | { ok: true; uri: vscode.Uri; shown: string; original: string; proposed: string; createsFile: boolean; editCount: number | undefined }
  | { ok: false; output: string };

async function prepareEdit(options: ProposeEditToolOptions, args: ProposeEditArguments): Promise<PreparedEdit> {
  const fail = (output: string): PreparedEdit => ({ ok: false, output });
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
  let proposed: string;
  if (args.edits !== undefined) {
    const result = applyTextEdits(original, args.edits);
    if (!result.ok) return fail(`The edit to ${shown} was not applied: ${result.problem} Nothing was changed.`);
    proposed = result.text;
  } else {
    proposed = args.new_text ?? "";
  }
  if (document !== undefined && proposed === original) return fail(`The proposed content of ${shown} is the same as its current content; nothing to change.`);
  return { ok: true, uri, shown, original, proposed, createsFile: document === undefined, editCount: args.edits?.length };
}

/**
 * The change for the approval card: the file before and after, as run would make it from the document as it
 * is now. Replacements that cannot be placed are shown one by one (run will refuse them and say why).
 */
async function previewEdit(options: ProposeEditToolOptions, args: ProposeEditArguments): Promise<ProposedChange | null> {
  const shownArguments = args.edits !== undefined ? ["edits"] : ["new_text"];
  const prepared = await prepareEdit(options, args);
  // The diff's header names the file as resolved, so the card need not list the path again.
  if (prepared.ok) return { path: prepared.shown, original: prepared.createsFile ? null : prepared.original, proposed: prepared.proposed, arguments: ["path", ...shownArguments] };
  if (args.edits === undefined || args.new_text !== undefined) return null;
  return { path: args.path, replacements: args.edits.map((edit) => ({ oldText: edit.old_text, newText: edit.new_text })), arguments: shownArguments };
}

async function proposeEdit(options: ProposeEditToolOptions, args: ProposeEditArguments, signal: AbortSignal, caller?: ToolCaller): Promise<string | ToolRunResult> {
  const prepared = await prepareEdit(options, args);
  if (!prepared.ok) return { output: prepared.output, isError: true };
  const { uri, shown, original, proposed, createsFile } = prepared;
  signal.throwIfAborted();

  const summary = describeChange(original, proposed, createsFile, prepared.editCount);
  try {
    const { changes } = await options.review.propose(uri, proposed, { createsFile, fromModel: true, ...(caller ? { conversationId: caller.conversationId } : {}) });
    return `The edit to ${shown} (${summary}, ${changes === 1 ? "1 changed part" : `${changes} changed parts`}) is in the editor, awaiting the user's review: they keep or undo each part, and the file is saved once every part is decided. ${createsFile ? "Until then the file is empty on disk." : "Until then the file on disk is unchanged."}`;
  } catch (error) {
    return { output: `The edit to ${shown} was not put in the editor: ${(error as Error).message} Nothing changed.`, isError: true };
  }
}

/** The size of the change, for the model. */
function describeChange(original: string, proposed: string, isNewFile: boolean, editCount: number | undefined): string {
  const lineCount = (text: string): number => (text === "" ? 0 : splitLines(text).length);
  if (isNewFile) return `new file, ${lineCount(proposed)} lines`;
  const before = lineCount(original);
  const after = lineCount(proposed);
  if (editCount === undefined) return `whole content replaced, ${before} → ${after} lines`;
  return editCount === 1 ? `1 replacement, ${before} → ${after} lines` : `${editCount} replacements, ${before} → ${after} lines`;
}
