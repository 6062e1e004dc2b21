import type { RuleFile } from "./ruleFile";

// `.github/copilot-instructions.md`: always on, at the folder's root.

const PATH = ".github/copilot-instructions.md";

export function readCopilotInstructions(files: ReadonlyMap<string, string>): RuleFile[] {
  const text = files.get(PATH);
  return text === undefined ? [] : [{ kind: "copilotInstructions", path: PATH, text }];
}
