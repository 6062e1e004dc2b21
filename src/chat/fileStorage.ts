import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import type { DocumentStorage } from "./documentStorage";
import { assertDocumentName } from "./documentStorage";

const TEMPORARY_MARKER = ".tmp-";

/**
 * DocumentStorage on a folder (the extension passes `context.storageUri`, or global storage when no
 * folder is open). Writes go to a temporary file that is flushed to disk and then renamed over the
 * target: rename is atomic on one file system, so a crash leaves the old file or the new one.
 */
export class FileStorage implements DocumentStorage {
  constructor(readonly rootFolder: string) {}

  async read(name: string): Promise<string | null> {
    try {
      return await fs.readFile(this.pathOf(name), "utf8");
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async writeAtomically(name: string, text: string): Promise<void> {
    const target = this.pathOf(name);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}${TEMPORARY_MARKER}${process.pid}-${randomBytes(4).toString("hex")}`;
    const handle = await fs.open(temporary, "w", 0o600);
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await fs.rename(temporary, target);
    } catch (error) {
      await fs.rm(temporary, { force: true });
      throw error;
    }
    await syncFolder(path.dirname(target));
  }

  async append(name: string, text: string): Promise<void> {
    const target = this.pathOf(name);
    await fs.mkdir(path.dirname(target), { recursive: true });
    // One write call per append: a crash can cut the last line short, never interleave two of them.
    const handle = await fs.open(target, "a", 0o600);
    try {
      await handle.write(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  async list(folder: string): Promise<string[]> {
    const absolute = folder === "" ? this.rootFolder : this.pathOf(folder);
    let entries;
    try {
      entries = await fs.readdir(absolute, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    return entries.filter((entry) => entry.isFile() && !entry.name.includes(TEMPORARY_MARKER)).map((entry) => entry.name);
  }

  async remove(name: string): Promise<void> {
    await fs.rm(this.pathOf(name), { force: true });
  }

  async rename(from: string, to: string): Promise<void> {
    const target = this.pathOf(to);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(this.pathOf(from), target);
  }

  private pathOf(name: string): string {
    assertDocumentName(name);
    return path.join(this.rootFolder, ...name.split("/"));
  }
}

function isMissing(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "ENOENT";
}

/** Makes the rename itself durable; not every platform can open a folder, so failure is tolerated. */
async function syncFolder(folder: string): Promise<void> {
  let handle;
  try {
    handle = await fs.open(folder, "r");
    await handle.sync();
  } catch {
    // Windows cannot fsync a directory; the rename is still atomic there.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
