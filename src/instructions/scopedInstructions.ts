import { boundedGlobMatcher } from "./boundedGlob";
import { parseFrontMatter } from "./frontMatter";
import type { RuleFile } from "./ruleFile";

// `.github/instructions/**/*.instructions.md` (VS Code's format): front matter `applyTo` holds globs relative
// to the folder (a comma-separated string or a list). A file goes with a request when a file the turn works
// on matches; `**` (or `**/*`) always; no `applyTo` never (VS Code attaches those by hand only). The front
// matter is not sent, only the body. The globs are matched in bounded time (boundedGlob.ts): they are repository text.

const FOLDER = ".github/instructions/";
const SUFFIX = ".instructions.md";

export function isScopedInstructionsPath(path: string): boolean {
  return path.startsWith(FOLDER) && path.endsWith(SUFFIX);
}

export function readScopedInstructions(files: ReadonlyMap<string, string>, workingOn: readonly string[]): RuleFile[] {
  const chosen: RuleFile[] = [];
  for (const [path, text] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    if (!isScopedInstructionsPath(path)) continue;
    const { fields, body } = parseFrontMatter(text);
    const globs = applyToGlobs(fields.get("applyTo"));
    if (globs.length === 0) continue;
    const matches = boundedGlobMatcher(globs);
    if (globs.some(matchesEverything) || workingOn.some((file) => matches(file))) chosen.push({ kind: "scopedInstructions", path, text: body });
  }
  return chosen;
}

function applyToGlobs(value: string | string[] | undefined): string[] {
  const list = value === undefined ? [] : Array.isArray(value) ? value : value.split(",");
  return list.map((glob) => glob.trim().replace(/^\.\//, "")).filter((glob) => glob !== "");
}

function matchesEverything(glob: string): boolean {
  return glob === "**" || glob === "**/*";
}
