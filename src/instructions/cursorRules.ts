import type { RuleFile } from "./ruleFile";

// Cursor's legacy single `.cursorrules` file at the folder's root.

const NAME = ".cursorrules";

export function readCursorRules(files: ReadonlyMap<string, string>): RuleFile[] {
  const text = files.get(NAME);
  return text === undefined ? [] : [{ kind: "cursorRules", path: NAME, text }];
}
