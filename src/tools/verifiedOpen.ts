// Opens a file or folder at a real path that was checked to be inside the workspace, and proves that what was
// opened is what was checked. Checking a path and then opening it by path again leaves a window in which a
// folder on the way can be swapped for a symbolic link to somewhere else; here the file is opened first and
// the opened handle itself is compared with the checked path, and everything is read through the handle.
import { constants, promises as fs } from "node:fs";
import type { Dirent } from "node:fs";
import type { FileHandle } from "node:fs/promises";

export type VerifiedOpen = { readonly ok: true; readonly handle: FileHandle } | { readonly ok: false; readonly problem: string };

/**
 * O_NOFOLLOW refuses a symbolic link in the last place; O_NONBLOCK keeps a named pipe from blocking the open
 * (and with it a thread of the pool) until someone writes to it. Both are 0 where the platform lacks them.
 */
const openFlags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** The caller closes the handle. `shownPath` names the file in the problem text. */
export async function openVerified(realPath: string, shownPath: string): Promise<VerifiedOpen> {
  let handle: FileHandle;
  try {
    handle = await fs.open(realPath, openFlags);
  } catch (error) {
    return { ok: false, problem: openProblem(error, shownPath) };
  }
  let same: boolean;
  try {
    same = await isOpenedAt(handle, realPath);
  } catch {
    same = false;
  }
  if (same) return { ok: true, handle };
  await handle.close();
  return { ok: false, problem: changedWhileOpening(shownPath) };
}

/** The names in a folder, read through a verified handle where the system allows it (Linux: /proc/self/fd). */
export async function readFolderVerified(realPath: string, shownPath: string): Promise<{ ok: true; entries: Dirent[] } | { ok: false; problem: string }> {
  const opened = await openVerified(realPath, shownPath);
  if (!opened.ok) return opened;
  try {
    if (!(await opened.handle.stat()).isDirectory()) return { ok: false, problem: `"${shownPath}" is a file, not a folder; use read_file to read it.` };
    const viaHandle = `/proc/self/fd/${opened.handle.fd}`;
    if (await canReadThroughProc(viaHandle)) return { ok: true, entries: await fs.readdir(viaHandle, { withFileTypes: true }) };
    // Elsewhere: read by path, then make sure the path still leads to the folder that was opened.
    const entries = await fs.readdir(realPath, { withFileTypes: true });
    if (!(await isOpenedAt(opened.handle, realPath))) return { ok: false, problem: changedWhileOpening(shownPath) };
    return { ok: true, entries };
  } finally {
    await opened.handle.close();
  }
}

/**
 * On Linux the kernel names the opened file exactly (/proc/self/fd/N). Elsewhere the path must still resolve
 * to itself and to the same file (device and inode) as the handle: a swapped link or folder fails one of them.
 */
async function isOpenedAt(handle: FileHandle, realPath: string): Promise<boolean> {
  const procLink = `/proc/self/fd/${handle.fd}`;
  if (await canReadThroughProc(procLink)) return (await fs.readlink(procLink)) === realPath;
  const [opened, current, resolved] = await Promise.all([handle.stat(), fs.stat(realPath), fs.realpath(realPath)]);
  return resolved === realPath && opened.dev === current.dev && opened.ino === current.ino;
}

let procAvailable: boolean | undefined;

async function canReadThroughProc(procLink: string): Promise<boolean> {
  if (procAvailable === undefined) {
    procAvailable = process.platform === "linux" && (await fs.readlink(procLink).then(() => true, () => false));
  }
  return procAvailable;
}

function changedWhileOpening(shownPath: string): string {
  return `"${shownPath}" changed while it was being opened (a folder on its path was replaced, possibly by a link to outside the workspace), so it was not read.`;
}

function openProblem(error: unknown, shownPath: string): string {
  const code = typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : "";
  switch (code) {
    case "ELOOP":
    case "EMLINK":
      return changedWhileOpening(shownPath);
    case "ENOENT":
      return `"${shownPath}" does not exist (it may have been removed just now).`;
    case "EACCES":
    case "EPERM":
      return `"${shownPath}" cannot be opened: permission denied.`;
    default:
      return `"${shownPath}" cannot be opened: ${error instanceof Error ? error.message : String(error)}`;
  }
}
