import { promises as fs } from "node:fs";
import { resolveInsideWorkspace } from "../tools/workspacePaths";
import { openVerified } from "../tools/verifiedOpen";

// How rules and prompt files are read, by the panel and the CLI alike: a file goes to the model only when it is
// a regular file whose real path (links followed) lies inside the folder it was found in, the same check the
// file tools make. A link such as AGENTS.md -> /etc/passwd, a FIFO (opened without blocking, then refused) or a
// device is refused with the reason. Only the bytes that are kept are read: a 2 GB AGENTS.md costs its first bytes.

export type FileInsideFolderRead = { ok: true; text: string; cut: boolean } | { ok: false; reason: string };

/** `relative` ("/"-separated) under `folder`, at most `limitBytes` of it, decoded as UTF-8. */
export async function readFileInsideFolder(folder: string, relative: string, limitBytes: number): Promise<FileInsideFolderRead> {
  const resolved = await resolveInsideWorkspace([folder], relative);
  if (!resolved.ok) return { ok: false, reason: resolved.problem };
  if (!resolved.exists) return { ok: false, reason: `"${relative}" does not exist.` };
  // Looked at before it is opened: opening a device can do something of its own.
  const found = await fs.stat(resolved.absolutePath).catch(() => null);
  if (found === null || !found.isFile()) return { ok: false, reason: notRegular(relative) };
  const opened = await openVerified(resolved.absolutePath, relative);
  if (!opened.ok) return { ok: false, reason: opened.problem };
  const handle = opened.handle;
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { ok: false, reason: notRegular(relative) };
    const buffer = Buffer.alloc(Math.min(stat.size, limitBytes));
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const cut = stat.size > limitBytes;
    // `stream: true` holds back a character the cut split in two instead of decoding it as U+FFFD.
    return { ok: true, text: new TextDecoder().decode(buffer.subarray(0, filled), { stream: cut }), cut };
  } finally {
    await handle.close();
  }
}

function notRegular(relative: string): string {
  return `"${relative}" is not a regular file (a folder, FIFO or device).`;
}
