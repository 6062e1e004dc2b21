import type { RuleFile } from "./ruleFile";
import { parentOf } from "./ruleFile";

// AGENTS.md (agents.md convention): the folder root's, and for each file the turn works on the nearest
// AGENTS.md above it. Root first, then nested ones from shallow to deep, so the most specific comes last
// (as Codex concatenates root → leaf).

const NAME = "AGENTS.md";

export function readAgentsMd(files: ReadonlyMap<string, string>, workingOn: readonly string[]): RuleFile[] {
  const chosen = new Set<string>();
  if (files.has(NAME)) chosen.add(NAME);
  for (const path of workingOn) {
    const nearest = nearestAbove(files, path);
    if (nearest !== null) chosen.add(nearest);
  }
  return [...chosen]
    .sort((a, b) => depth(a) - depth(b) || a.localeCompare(b))
    .map((path) => ({ kind: "agentsMd" as const, path, text: files.get(path) ?? "" }));
}

function nearestAbove(files: ReadonlyMap<string, string>, path: string): string | null {
  let directory = parentOf(path);
  for (;;) {
    const candidate = directory === "" ? NAME : `${directory}/${NAME}`;
    if (files.has(candidate)) return candidate;
    if (directory === "") return null;
    directory = parentOf(directory);
  }
}

function depth(path: string): number {
  return path.split("/").length;
}
