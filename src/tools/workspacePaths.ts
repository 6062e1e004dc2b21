// Decides whether a path the model names is inside the workspace, after following every symbolic link.
import { promises as fs } from "node:fs";
import * as path from "node:path";

export type WorkspacePathResolution =
  | {
      readonly ok: true;
      /** Real path (symbolic links followed as far as the path exists). */
      readonly absolutePath: string;
      /** The workspace folder, as given, that contains the path. */
      readonly folder: string;
      /** Path relative to that folder's real path, "/"-separated; "" for the folder itself. */
      readonly relativePath: string;
      readonly exists: boolean;
    }
  | { readonly ok: false; readonly problem: string };

/** A chain of links longer than this is treated like the operating system's ELOOP. */
const maximumLinkHops = 40;

export async function resolveInsideWorkspace(
  workspaceFolders: readonly string[],
  requestedPath: string,
): Promise<WorkspacePathResolution> {
  const shown = JSON.stringify(requestedPath);
  if (requestedPath.includes("\0")) {
    return { ok: false, problem: `The path ${shown} contains a NUL byte; it is refused as outside the workspace.` };
  }
  if (workspaceFolders.length === 0) {
    return { ok: false, problem: `The path ${shown} cannot be used because no workspace folder is open.` };
  }

  const folders = await realWorkspaceFolders(workspaceFolders);
  const lexicalPath = lexicalTarget(workspaceFolders, requestedPath);

  let real: { path: string; exists: boolean };
  try {
    real = await realPathOfPossiblyMissing(lexicalPath);
  } catch (error) {
    return { ok: false, problem: `The path ${shown} cannot be resolved: ${(error as Error).message}` };
  }

  // The innermost folder wins so nested workspace folders report the most specific one.
  const containing = folders
    .filter((folder) => isInside(folder.realPath, real.path))
    .sort((a, b) => b.realPath.length - a.realPath.length)[0];
  if (containing === undefined) {
    return {
      ok: false,
      problem: `The path ${shown} is outside the workspace (it resolves to ${real.path}). Only files inside the workspace folders can be used.`,
    };
  }
  return {
    ok: true,
    absolutePath: real.path,
    folder: containing.given,
    relativePath: path.relative(containing.realPath, real.path).split(path.sep).join("/"),
    exists: real.exists,
  };
}

/** Relative paths resolve against the first folder, or against the folder named by the first segment when several are open. */
function lexicalTarget(workspaceFolders: readonly string[], requestedPath: string): string {
  if (path.isAbsolute(requestedPath)) return path.resolve(requestedPath);
  if (workspaceFolders.length > 1) {
    const [firstSegment, ...rest] = requestedPath.split(/[\\/]+/);
    const named = workspaceFolders.find((folder) => path.basename(path.resolve(folder)) === firstSegment);
    if (named !== undefined) return path.resolve(named, ...rest);
  }
  return path.resolve(workspaceFolders[0] as string, requestedPath);
}

async function realWorkspaceFolders(workspaceFolders: readonly string[]): Promise<{ given: string; realPath: string }[]> {
  return Promise.all(
    workspaceFolders.map(async (given) => {
      try {
        return { given, realPath: await fs.realpath(given) };
      } catch {
        // A folder that vanished still confines by its own path rather than disappearing from the check.
        return { given, realPath: path.resolve(given) };
      }
    }),
  );
}

/**
 * The real path of an existing path, or for one that does not exist yet, the real path of its nearest existing
 * ancestor with the missing tail appended. A dangling symbolic link is followed by hand: realpath fails on it,
 * yet writing through it would create its target, which may be outside.
 */
async function realPathOfPossiblyMissing(absolutePath: string, linkHops = 0): Promise<{ path: string; exists: boolean }> {
  if (linkHops > maximumLinkHops) throw new Error("too many levels of symbolic links");
  try {
    return { path: await fs.realpath(absolutePath), exists: true };
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw new Error(describeFsError(error));
  }
  const danglingLinkTarget = await readLinkIfAny(absolutePath);
  if (danglingLinkTarget !== null) {
    return realPathOfPossiblyMissing(path.resolve(path.dirname(absolutePath), danglingLinkTarget), linkHops + 1);
  }
  const parent = path.dirname(absolutePath);
  if (parent === absolutePath) return { path: absolutePath, exists: false };
  const realParent = await realPathOfPossiblyMissing(parent, linkHops);
  return { path: path.join(realParent.path, path.basename(absolutePath)), exists: false };
}

async function readLinkIfAny(candidate: string): Promise<string | null> {
  try {
    return await fs.readlink(candidate);
  } catch {
    return null;
  }
}

/** Compared by path segments, so "/ws-evil" is not inside "/ws". Case-sensitive on purpose: both sides are real paths. */
export function isInside(folderRealPath: string, candidateRealPath: string): boolean {
  const relative = path.relative(folderRealPath, candidateRealPath);
  if (relative === "") return true;
  if (path.isAbsolute(relative)) return false;
  return relative !== ".." && !relative.startsWith(`..${path.sep}`);
}

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : undefined;
}

function describeFsError(error: unknown): string {
  switch (errorCode(error)) {
    case "ELOOP":
      return "too many levels of symbolic links";
    case "ENOTDIR":
      return "a part of the path is a file, not a folder";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
