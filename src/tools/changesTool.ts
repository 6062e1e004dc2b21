import { workingTreeChanges } from "./gitChanges";
import type { Tool } from "./toolContract";
import { defineTool } from "./toolContract";

// get_changes: the working tree's git diff (staged and unstaged) and untracked file names, what the person
// would otherwise paste from `git diff`. Read-only: approved like the other read tools.

/** `trusted`: whether the person trusts the workspace (VS Code's Workspace Trust); untrusted, git is not run. */
export function createChangesTool(workspaceFolders: () => readonly string[], trusted: () => boolean): Tool {
  return defineTool<Record<string, never>>({
    name: "get_changes",
    description:
      "Show the uncommitted changes of the workspace's git repository: the staged diff, the unstaged diff and the names of " +
      "untracked files. Long diffs are cut, and the cut is said.",
    risk: "read",
    parameters: { type: "object", properties: {}, additionalProperties: false },
    run: async () => {
      const changes = await workingTreeChanges(workspaceFolders(), trusted());
      return changes.ok ? changes.text : { output: changes.problem, isError: true };
    },
  });
}
