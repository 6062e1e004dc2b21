import { readAgentsMd } from "./agentsMd";
import { readClaudeMd } from "./claudeMd";
import { readClineRules } from "./clineRules";
import { readCopilotInstructions } from "./copilotInstructions";
import { readCursorRules } from "./cursorRules";
import type { RuleFile, RuleKind, RulesFolder } from "./ruleFile";
import { readScopedInstructions } from "./scopedInstructions";

// Which rules files go with a request, in the documented order: per workspace folder (in the workspace's
// order) AGENTS.md (root, then the nearest ones above the files worked on), .github/copilot-instructions.md,
// .github/instructions/*.instructions.md whose applyTo matches, CLAUDE.md, .clinerules, .cursorrules.
// The general project files come first and the more specific and tool-specific ones after them.

/** The files the host adapter reads and watches, relative to each workspace folder. */
export const RULES_FILE_GLOBS = ["AGENTS.md", "**/AGENTS.md", ".github/copilot-instructions.md", ".github/instructions/**/*.instructions.md", "CLAUDE.md", ".claude/CLAUDE.md", ".clinerules", ".clinerules/**", ".cursorrules"];

export interface ChosenRule extends RuleFile {
  /** The workspace folder's name. */
  folder: string;
}

export interface RulesSelection {
  /** Relative paths (per folder) of the files the turn works on: the active editor's file, attached files. */
  workingOn: ReadonlyMap<string, readonly string[]>;
  /** Kinds turned off in the settings. */
  disabledKinds?: ReadonlySet<RuleKind>;
  /** Files turned off for the conversation, as `folder/path`. */
  disabledFiles?: ReadonlySet<string>;
}

export function chooseRules(folders: readonly RulesFolder[], selection: RulesSelection): ChosenRule[] {
  const chosen: ChosenRule[] = [];
  for (const folder of folders) {
    const workingOn = selection.workingOn.get(folder.name) ?? [];
    const files = [
      ...readAgentsMd(folder.files, workingOn),
      ...readCopilotInstructions(folder.files),
      ...readScopedInstructions(folder.files, workingOn),
      ...readClaudeMd(folder.files),
      ...readClineRules(folder.files),
      ...readCursorRules(folder.files),
    ];
    for (const file of files) {
      if (selection.disabledKinds?.has(file.kind) || selection.disabledFiles?.has(`${folder.name}/${file.path}`)) continue;
      if (file.text.trim() === "") continue;
      chosen.push({ ...file, folder: folder.name });
    }
  }
  return chosen;
}
