import type { RuleFile } from "./ruleFile";

// Cline's `.clinerules`: one file, or a folder whose files are all rules (sorted by path), except the
// folders Cline uses for other things (workflows, hooks, skills).

const NAME = ".clinerules";
const NOT_RULES = ["workflows/", "hooks/", "skills/"];

export function readClineRules(files: ReadonlyMap<string, string>): RuleFile[] {
  const single = files.get(NAME);
  if (single !== undefined) return [{ kind: "clineRules", path: NAME, text: single }];
  return [...files]
    .filter(([path]) => path.startsWith(`${NAME}/`) && !NOT_RULES.some((folder) => path.slice(NAME.length + 1).startsWith(folder)))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, text]) => ({ kind: "clineRules" as const, path, text }));
}
