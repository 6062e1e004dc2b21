import { randomBytes } from "node:crypto";
import { watch as watchFolder, promises as fs } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import path from "node:path";
import type { DocumentStorage, StorageWatch } from "./documentStorage";
import { assertDocumentName } from "./documentStorage";

const TEMPORARY_MARKER = ".tmp-";
/** An append handle unused for this long is closed. */
const APPEND_HANDLE_IDLE_MS = 2_000;
/**
 * A temporary file older than this is debris of a write that failed or was killed; a younger one may be
 * another window's write in progress, so it is left alone.
 */
const LEFTOVER_AGE_MS = 60_000;

/**
 * DocumentStorage on a folder (the extension passes `context.storageUri`, or global storage when no
 * folder is open). Writes go to a temporary file that is flushed to disk and then renamed over the
 * target: rename is atomic on one file system, so a crash leaves the old file or the new one.
 */
export class FileStorage implements DocumentStorage {
  /** Folders known to exist, so an append (several per turn) costs no mkdir. */
  private readonly madeFolders = new Set<string>();
  private readonly appendHandles = new Map<string, { handle: FileHandle; lastUsed: number }>();
  private idleCheck: NodeJS.Timeout | null = null;

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
    try {
      const handle = await fs.open(temporary, "w", 0o600);
      try {
        await handle.writeFile(text, "utf8");
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(temporary, target);
    } catch (error) {
      // A full disk fails the write itself: what was written of the temporary file must not stay behind.
      await fs.rm(temporary, { force: true }).catch(() => undefined);
      throw error;
    }
    await syncFolder(path.dirname(target));
  }

  async createExclusively(name: string, text: string): Promise<boolean> {
    const target = this.pathOf(name);
    await fs.mkdir(path.dirname(target), { recursive: true });
    try {
      await fs.writeFile(target, text, { flag: "wx", mode: 0o600 });
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code === "EEXIST") return false;
      throw error;
    }
  }

  async append(name: string, text: string, options: { flush?: boolean } = {}): Promise<void> {
    const target = this.pathOf(name);
    const handle = await this.appendHandle(target);
    // One write call per append: a crash can cut the last line short, never interleave two of them.
    await handle.write(text);
    if (options.flush !== false) await handle.sync();
  }

  /**
   * An open handle for appending to `target`. A turn appends several times within seconds (its journal,
   * the list, the ledger), so handles stay open until they have been idle for a moment.
   */
  private async appendHandle(target: string): Promise<FileHandle> {
    const cached = this.appendHandles.get(target);
    if (cached) {
      cached.lastUsed = Date.now();
      return cached.handle;
    }
    const folder = path.dirname(target);
    if (!this.madeFolders.has(folder)) {
      await fs.mkdir(folder, { recursive: true });
      this.madeFolders.add(folder);
    }
    const handle = await fs.open(target, "a", 0o600).catch(async (error: unknown) => {
      // The folder was removed since (a user cleaning up): made again once.
      if (!isMissing(error)) throw error;
      await fs.mkdir(folder, { recursive: true });
      return fs.open(target, "a", 0o600);
    });
    const raced = this.appendHandles.get(target);
    if (raced) {
      await handle.close();
      return raced.handle;
    }
    this.appendHandles.set(target, { handle, lastUsed: Date.now() });
    this.idleCheck ??= setInterval(() => void this.closeIdleHandles(), APPEND_HANDLE_IDLE_MS);
    this.idleCheck.unref?.();
    return handle;
  }

  private async closeIdleHandles(): Promise<void> {
    const now = Date.now();
    for (const [target, entry] of this.appendHandles) if (now - entry.lastUsed >= APPEND_HANDLE_IDLE_MS) await this.closeHandle(target);
    if (this.appendHandles.size === 0 && this.idleCheck) {
      clearInterval(this.idleCheck);
      this.idleCheck = null;
    }
  }

  private async closeHandle(target: string): Promise<void> {
    const entry = this.appendHandles.get(target);
    if (!entry) return;
    this.appendHandles.delete(target);
    await entry.handle.close().catch(() => undefined);
  }

  /** Closes the handles kept open for appending. */
  async close(): Promise<void> {
    for (const target of [...this.appendHandles.keys()]) await this.closeHandle(target);
    if (this.idleCheck) clearInterval(this.idleCheck);
    this.idleCheck = null;
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

  async modifiedAt(name: string): Promise<number | null> {
    try {
      return (await fs.stat(this.pathOf(name))).mtimeMs;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async touch(name: string): Promise<void> {
    const now = new Date();
    await fs.utimes(this.pathOf(name), now, now).catch((error: unknown) => {
      if (!isMissing(error)) throw error;
    });
  }

  async remove(name: string): Promise<void> {
    await this.closeHandle(this.pathOf(name));
    await fs.rm(this.pathOf(name), { force: true });
  }

  async rename(from: string, to: string): Promise<void> {
    await this.closeHandle(this.pathOf(from));
    const target = this.pathOf(to);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(this.pathOf(from), target);
  }

  watch(folder: string, onChange: (name: string) => void): StorageWatch {
    const absolute = folder === "" ? this.rootFolder : this.pathOf(folder);
    let watcher: ReturnType<typeof watchFolder> | null = null;
    const start = async () => {
      await fs.mkdir(absolute, { recursive: true });
      if (stopped) return;
      watcher = watchFolder(absolute, { persistent: false }, (_event, name) => {
        if (typeof name === "string" && !name.includes(TEMPORARY_MARKER)) onChange(name);
      });
      // A watch that breaks (the folder removed) only stops the live updates; History still reads on open.
      watcher.on("error", () => watcher?.close());
    };
    let stopped = false;
    const ready = start().catch(() => undefined);
    return {
      ready,
      dispose: () => {
        stopped = true;
        watcher?.close();
      },
    };
  }

  /** Removes temporary files left by writes that failed or were killed (run once at start). */
  async removeLeftovers(now = Date.now()): Promise<number> {
    let removed = 0;
    const walk = async (folder: string): Promise<void> => {
      let entries;
      try {
        entries = await fs.readdir(folder, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const full = path.join(folder, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.isFile() && entry.name.includes(TEMPORARY_MARKER)) {
          const stat = await fs.stat(full).catch(() => null);
          if (stat && now - stat.mtimeMs > LEFTOVER_AGE_MS && (await fs.rm(full, { force: true }).then(() => true, () => false))) removed += 1;
        }
      }
    };
    await walk(this.rootFolder);
    return removed;
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
