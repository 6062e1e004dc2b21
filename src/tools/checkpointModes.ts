import { chmodSync, lstatSync } from "node:fs";
import * as path from "node:path";
import type { DirNode } from "./checkpointScan";

// File permissions beyond what git keeps. A git tree says only whether a file is executable, and git writes a
// file it checks out with the permissions its umask gives (a 0600 key file came back 0644). So each checkpoint
// commit's message also records permissions: the usual ones for plain and for executable files, and each file
// that differs from them (a secret kept 0600, a script 0700). Restore sets them after git has written the
// files, and a change of permissions alone is a change like any other. Windows has no such permissions.

export interface Permissions {
  /** The usual permissions of a file git stores as 100644 and of one it stores as 100755. */
  plain: number;
  executable: number;
  /** Files with other permissions, by "/"-separated path. */
  others: Map<string, number>;
}

const enabled = process.platform !== "win32";
const defaultPermissions: Permissions = { plain: 0o644, executable: 0o755, others: new Map() };
const usualLine = /^Permissions: ([0-7]{3,4}) ([0-7]{3,4})$/;
const otherLine = /^Permission ([0-7]{3,4}): (".*")$/;

/** The permissions of the folder's files, as lines for the checkpoint commit's message ("" when there are none to keep). */
export function permissionsText(root: DirNode): string {
  if (!enabled) return "";
  // Counted first, without the paths: only the files that differ from the usual permissions are listed.
  const plainCounts = new Map<number, number>();
  const executableCounts = new Map<number, number>();
  count(root, plainCounts, executableCounts);
  if (plainCounts.size === 0 && executableCounts.size === 0) return "";
  const plain = mostCommon(plainCounts) ?? 0o644;
  const executable = mostCommon(executableCounts) ?? plain | ((plain & 0o444) >> 2);
  const lines = [`Permissions: ${octal(plain)} ${octal(executable)}`];
  if (plainCounts.size > 1 || executableCounts.size > 1) listOthers(root, "", plain, executable, lines);
  return `${lines.join("\n")}\n`;
}

/** The permissions a checkpoint commit's message records; git's own (0644, 0755) for one that records none. */
export function parsePermissions(message: string): Permissions {
  const permissions: Permissions = { plain: defaultPermissions.plain, executable: defaultPermissions.executable, others: new Map() };
  for (const line of message.split("\n")) {
    const usual = usualLine.exec(line);
    if (usual) {
      permissions.plain = parseInt(usual[1], 8);
      permissions.executable = parseInt(usual[2], 8);
      continue;
    }
    const other = otherLine.exec(line);
    if (other) permissions.others.set(JSON.parse(other[2]) as string, parseInt(other[1], 8));
  }
  return permissions;
}

export function permissionOf(permissions: Permissions, relativePath: string, executable: boolean): number {
  return permissions.others.get(relativePath) ?? (executable ? permissions.executable : permissions.plain);
}

/** Paths whose permissions may differ between two checkpoints (their usual ones or their other files). */
export function pathsWithPermissionsChanged(from: Permissions, to: Permissions): "all" | Set<string> {
  if (from.plain !== to.plain || from.executable !== to.executable) return "all";
  const paths = new Set<string>();
  for (const [relativePath, perm] of from.others) if (to.others.get(relativePath) !== perm) paths.add(relativePath);
  for (const [relativePath, perm] of to.others) if (from.others.get(relativePath) !== perm) paths.add(relativePath);
  return paths;
}

/** Sets each regular file's permissions to those `permissions` records for it (after git wrote it with its umask's). */
export function applyPermissions(folder: string, relativePaths: readonly string[], permissions: Permissions): void {
  if (!enabled) return;
  for (const relativePath of relativePaths) {
    const file = path.join(folder, ...relativePath.split("/"));
    const stats = lstatSync(file, { throwIfNoEntry: false });
    if (!stats?.isFile()) continue;
    const wanted = permissionOf(permissions, relativePath, (stats.mode & 0o100) !== 0);
    if ((stats.mode & 0o7777) !== wanted) chmodSync(file, wanted);
  }
}

function count(node: DirNode, plain: Map<number, number>, executable: Map<number, number>): void {
  for (const file of node.files.values()) {
    if (file.link || file.oid === null) continue;
    const counts = file.perm & 0o100 ? executable : plain;
    counts.set(file.perm, (counts.get(file.perm) ?? 0) + 1);
  }
  for (const directory of node.dirs.values()) count(directory, plain, executable);
}

function listOthers(node: DirNode, prefix: string, plain: number, executable: number, lines: string[]): void {
  for (const [name, file] of node.files) {
    if (file.link || file.oid === null || file.perm === (file.perm & 0o100 ? executable : plain)) continue;
    lines.push(`Permission ${octal(file.perm)}: ${JSON.stringify(prefix + name)}`);
  }
  for (const [name, directory] of node.dirs) listOthers(directory, `${prefix}${name}/`, plain, executable, lines);
}

function mostCommon(counts: ReadonlyMap<number, number>): number | undefined {
  let best: number | undefined;
  for (const [value, count] of counts) if (best === undefined || count > (counts.get(best) ?? 0)) best = value;
  return best;
}

function octal(perm: number): string {
  return perm.toString(8).padStart(3, "0");
}
