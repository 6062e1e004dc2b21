// get_editor_context: what the user is looking at, so "this function" or "the selected code" can be resolved.
import * as vscode from "vscode";
import { avoidSplittingSurrogatePair } from "../outputTruncation";
import type { Tool } from "../toolContract";
import { defineTool } from "../toolContract";
import { workspaceDisplayPath } from "../workspaceDisplayPath";

export interface EditorContextToolOptions {
  workspaceFolders(): readonly string[];
  /** Selected text beyond this is cut with a marker; a select-all on a big file should not fill the request. */
  readonly maxSelectedChars?: number;
}

export const defaultMaxSelectedChars = 20_000;

export function createEditorContextTool(options: EditorContextToolOptions): Tool {
  return defineTool<Record<string, never>>({
    name: "get_editor_context",
    description:
      "Describe the editor the user is working in: the file's workspace path, language, the selection or cursor " +
      "(1-based line:column) with the selected text, and which lines are visible.",
    risk: "read",
    parameters: { type: "object", properties: {}, additionalProperties: false },
    run: async () => {
      const editor = vscode.window.activeTextEditor;
      if (editor === undefined) return "No editor is active.";
      return describeEditor(editor, options.workspaceFolders(), options.maxSelectedChars ?? defaultMaxSelectedChars);
    },
  });
}

function describeEditor(editor: vscode.TextEditor, workspaceFolders: readonly string[], maxSelectedChars: number): string {
  const { document } = editor;
  const place = documentPlace(document, workspaceFolders);
  const lines = [
    `File: ${place.shown}`,
    `Language: ${document.languageId}`,
    `Lines: ${document.lineCount}${document.isDirty ? " (has unsaved changes)" : ""}`,
    `Visible lines: ${editor.visibleRanges.map((range) => `${range.start.line + 1}-${range.end.line + 1}`).join(", ") || "none"}`,
  ];

  let budget = maxSelectedChars;
  for (const [index, selection] of editor.selections.entries()) {
    const label = editor.selections.length > 1 ? `Selection ${index + 1}` : "Selection";
    if (selection.isEmpty) {
      lines.push(`${label}: none, cursor at ${position(selection.active)}`);
      continue;
    }
    const text = document.getText(selection);
    lines.push(`${label}: ${position(selection.start)}-${position(selection.end)} (${text.length} characters)`);
    if (!place.mayShowText) continue;
    if (budget <= 0) {
      lines.push("[selected text not shown: the limit for selected text is used up]");
      continue;
    }
    const keep = avoidSplittingSurrogatePair(text, Math.min(text.length, budget));
    budget -= keep;
    lines.push("Selected text:", text.slice(0, keep) + (keep < text.length ? `\n[... selection cut: ${keep} of ${text.length} characters shown]` : ""));
  }
  if (!place.mayShowText && editor.selections.some((selection) => !selection.isEmpty)) {
    lines.push("[selected text not shown: the file is outside the workspace]");
  }
  return lines.join("\n");
}

/**
 * The file tools refuse paths outside the workspace; the editor context keeps the same line, so a file opened
 * from elsewhere is named but its text is not sent. Unsaved untitled documents are the user's own scratch text.
 */
function documentPlace(document: vscode.TextDocument, workspaceFolders: readonly string[]): { shown: string; mayShowText: boolean } {
  if (document.isUntitled) return { shown: `${document.uri.path} (untitled, not saved to disk)`, mayShowText: true };
  if (document.uri.scheme === "file") {
    const inside = workspaceDisplayPath(workspaceFolders, document.uri.fsPath);
    if (inside !== undefined) return { shown: inside, mayShowText: true };
    return { shown: `${document.uri.path.split("/").pop() ?? ""} (outside the workspace)`, mayShowText: false };
  }
  return { shown: `${document.uri.toString(true)} (not a file in the workspace)`, mayShowText: false };
}

function position(at: vscode.Position): string {
  return `${at.line + 1}:${at.character + 1}`;
}
