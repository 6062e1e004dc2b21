import type { RuleFile } from "./ruleFile";

// Claude Code's project memory: `CLAUDE.md` at the folder's root, or `.claude/CLAUDE.md`.

const PATHS = ["CLAUDE.md", ".claude/CLAUDE.md"];

export function readClaudeMd(files: ReadonlyMap<string, string>): RuleFile[] {
  return PATHS.flatMap((path) => {
    const text = files.get(path);
    return text === undefined ? [] : [{ kind: "claudeMd" as const, path, text }];
  });
}
