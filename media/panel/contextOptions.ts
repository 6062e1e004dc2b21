import type { AttachmentView, ContextSource, FileMatchView, ToHost } from "../../src/panel/protocol";
import { element } from "./dom";
import type { Localizer } from "./localizer";

// What the `#` menu offers beside files: the editor's context (Problems, Terminal, Changes) as fixed entries
// matched by their names, English or localized, and the folders and symbols the host found for the query.
// Picking one becomes an attachment chip; the host gathers the text when it is picked.

/** One row of the `#` menu. */
export type PickerChoice =
  | { kind: "file"; path: string }
  | { kind: "folder"; path: string }
  | { kind: "symbol"; path: string; name: string; detail: string }
  | { kind: "context"; source: Exclude<ContextSource, "folder" | "symbol">; title: string; description: string };

interface FixedEntry {
  source: Exclude<ContextSource, "folder" | "symbol">;
  /** English words the entry answers to, whatever the display language. */
  keywords: string;
  title: string;
  description: string;
}

function fixedEntries(localizer: Localizer): FixedEntry[] {
  return [
    { source: "problems", keywords: "problems diagnostics errors warnings", title: localizer.text("Problems"), description: localizer.text("Diagnostics of the workspace") },
    { source: "problemsInFile", keywords: "problems diagnostics errors warnings current file", title: localizer.text("Problems in the current file"), description: "" },
    { source: "terminal", keywords: "terminal output command shell", title: localizer.text("Terminal"), description: localizer.text("The last command and its output") },
    { source: "changes", keywords: "changes git diff staged unstaged", title: localizer.text("Changes"), description: localizer.text("git diff of the working tree") },
  ];
}

/** The fixed entries whose words start with the query (all of them for an empty query). */
export function contextChoices(query: string, localizer: Localizer): PickerChoice[] {
  const wanted = query.trim().toLowerCase();
  return fixedEntries(localizer)
    .filter((entry) => wanted === "" || `${entry.keywords} ${entry.title}`.toLowerCase().split(/\s+/).some((word) => word.startsWith(wanted)))
    .map(({ source, title, description }) => ({ kind: "context" as const, source, title, description }));
}

/** The host's matches as menu rows: folders, files, symbols. */
export function matchChoices(matches: readonly FileMatchView[]): PickerChoice[] {
  return matches.map((match) =>
    match.kind === "folder"
      ? { kind: "folder" as const, path: match.path }
      : match.kind === "symbol"
        ? { kind: "symbol" as const, path: match.path, name: match.name ?? "", detail: match.detail ?? "" }
        : { kind: "file" as const, path: match.path },
  );
}

/** What the host is asked to attach for a picked row. */
export function attachMessage(choice: PickerChoice): ToHost {
  switch (choice.kind) {
    case "file":
      return { type: "attachPath", path: choice.path };
    case "folder":
      return { type: "attachContext", source: "folder", path: choice.path };
    case "symbol":
      return { type: "attachContext", source: "symbol", path: choice.path, name: choice.name };
    case "context":
      return { type: "attachContext", source: choice.source };
  }
}

/** The codicon of a row, and of a chip of that kind. */
export function choiceIcon(choice: PickerChoice): string {
  if (choice.kind === "context") return contextIcon(choice.source);
  return choice.kind === "folder" ? "folder" : choice.kind === "symbol" ? symbolIcon(choice.detail) : "file";
}

/** The codicon of a symbol kind as the host names it ("class", "enummember"); an unknown kind gets the generic one. */
export function symbolIcon(kind: string): string {
  const named: Record<string, string> = { enummember: "enum-member", typeparameter: "type-parameter" };
  return /^[a-z]+$/.test(kind) ? `symbol-${named[kind] ?? kind}` : "symbol-misc";
}

export function contextIcon(kind: string): string {
  switch (kind) {
    case "problems":
    case "problemsInFile":
      return "warning";
    case "terminal":
      return "terminal";
    case "changes":
      return "git-compare";
    case "folder":
      return "folder";
    case "symbol":
      return "symbol-class";
    case "selection":
      return "selection";
    default:
      return "file";
  }
}

/** The tooltip of a chip whose text held a relay key (a rules file's row in the Rules chip's list too). */
export const REDACTED_NOTE = "A relay key in this text was replaced with [REDACTED]: the key is not sent to the model or kept in the history.";

/** A chip's tooltip: its label, what was cut or could not be read, and that a relay key was taken out. */
export function chipTitle(attachment: Pick<AttachmentView, "label" | "note" | "redacted">, localizer: Localizer): string {
  return [attachment.label, ...(attachment.note === undefined ? [] : [attachment.note]), ...(attachment.redacted ? [localizer.text(REDACTED_NOTE)] : [])].join("\n");
}

/** "key removed" on a chip (or a rules file's row) whose text held a relay key; nothing otherwise. */
export function redactedMarker(item: { redacted?: true }, localizer: Localizer): HTMLElement[] {
  return item.redacted ? [element("span", { className: "chip-redacted", text: localizer.text("key removed") })] : [];
}
