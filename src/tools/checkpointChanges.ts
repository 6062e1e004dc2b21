import type { GitResult } from "./checkpointGit";
import type { Permissions } from "./checkpointModes";
import { pathsWithPermissionsChanged, permissionOf } from "./checkpointModes";

// What changed in a workspace folder between two of its checkpoints: the files git lists as added, modified or
// deleted (names only), and the files whose permissions alone changed, which git does not see (it keeps only
// the execute bit; the rest is in each checkpoint's message, see checkpointModes).

/** A checkpoint of every workspace folder: folder path -> commit id in that folder's shadow repository. */
export type CheckpointId = Record<string, string>;

export type FileChangeKind = "added" | "modified" | "deleted";

export interface FileChange {
  /** The workspace folder the file is in. */
  folder: string;
  /** Relative to the folder, with forward slashes. */
  path: string;
  /** What happened to the file from the first checkpoint to the second. */
  kind: FileChangeKind;
}

export interface ChangeFound {
  change: FileChange;
  /** False for a change of permissions alone: Restore then sets them without writing the file. */
  contentChanged: boolean;
}

export interface ChangeSources {
  git(args: readonly string[]): Promise<GitResult>;
  /** The permissions a checkpoint recorded; null when it recorded none. */
  permissionsOf(commit: string): Promise<Permissions | null>;
}

export async function changesBetween(folder: string, from: string, to: string, sources: ChangeSources): Promise<ChangeFound[]> {
  if (from === to) return [];
  const output = (await sources.git(["diff-tree", "-r", "-z", "--no-renames", "--name-status", from, to])).stdout.toString("utf8");
  const fields = output.split("\0").filter((field) => field !== "");
  const changes: ChangeFound[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const status = fields[index];
    changes.push({ change: { folder, path: fields[index + 1], kind: status === "A" ? "added" : status === "D" ? "deleted" : "modified" }, contentChanged: true });
  }
  const listed = new Set(changes.map(({ change }) => change.path));
  for (const relativePath of await permissionChanges(from, to, sources)) {
    if (!listed.has(relativePath)) changes.push({ change: { folder, path: relativePath, kind: "modified" }, contentChanged: false });
  }
  return changes;
}

/** Files in both checkpoints with the same content and mode whose recorded permissions differ. */
async function permissionChanges(from: string, to: string, sources: ChangeSources): Promise<string[]> {
  const [fromPermissions, toPermissions] = [await sources.permissionsOf(from), await sources.permissionsOf(to)];
  if (!fromPermissions || !toPermissions) return [];
  const candidates = pathsWithPermissionsChanged(fromPermissions, toPermissions);
  if (candidates !== "all" && candidates.size === 0) return [];
  const paths = candidates === "all" ? [] : [...candidates];
  const [fromModes, toModes] = [await fileModes(from, paths, sources), await fileModes(to, paths, sources)];
  const changed: string[] = [];
  for (const [relativePath, mode] of fromModes) {
    if (toModes.get(relativePath) !== mode || mode === "120000") continue;
    const executable = mode === "100755";
    if (permissionOf(fromPermissions, relativePath, executable) !== permissionOf(toPermissions, relativePath, executable)) changed.push(relativePath);
  }
  return changed;
}

/** Path -> git mode of the checkpoint's files (of `only` when given). */
async function fileModes(commit: string, only: readonly string[], sources: ChangeSources): Promise<Map<string, string>> {
  const output = (await sources.git(["ls-tree", "-r", "-z", "--full-tree", commit, ...(only.length > 0 ? ["--", ...only] : [])])).stdout.toString("utf8");
  const modes = new Map<string, string>();
  for (const line of output.split("\0")) {
    const tab = line.indexOf("\t");
    if (tab > 0) modes.set(line.slice(tab + 1), line.slice(0, line.indexOf(" ")));
  }
  return modes;
}
