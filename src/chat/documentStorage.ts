// The small storage interface history and ledger are written against. Names are relative, "/"-separated
// and limited to safe characters; each implementation decides where they live (files, memory, ...).

export interface DocumentStorage {
  /** The text of a document, or null when it does not exist. Throws only when it exists but cannot be read. */
  read(name: string): Promise<string | null>;
  /** Replaces a document so that a reader sees either the old or the new text, never a mix, even after a crash. */
  writeAtomically(name: string, text: string): Promise<void>;
  /** Creates a document only if it does not exist yet (a lock); false when it already existed. */
  createExclusively(name: string, text: string): Promise<boolean>;
  /**
   * Appends to a document (created if missing); used for append-only logs. What is appended survives the
   * process being killed; with `flush` (the default) it is also flushed to the disk before this returns,
   * so it survives a power loss too.
   */
  append(name: string, text: string, options?: { flush?: boolean }): Promise<void>;
  /** Names of the documents directly inside a folder ("" for the top), without temporary files. */
  list(folder: string): Promise<string[]>;
  /** When a document was last written or touched (epoch ms), null when it does not exist. */
  modifiedAt(name: string): Promise<number | null>;
  /** Marks a document as written now without changing it (a heartbeat); nothing when it does not exist. */
  touch(name: string): Promise<void>;
  /** Removes a document; no error when it is already gone. */
  remove(name: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /**
   * Calls `onChange` with the name of a document in `folder` that another writer (or this one) changed.
   * Optional: without it, a window sees other windows' changes only when it reads again.
   */
  watch?(folder: string, onChange: (name: string) => void): StorageWatch;
}

export interface StorageWatch {
  /** Settles once changes are being reported. */
  ready: Promise<void>;
  dispose(): void;
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Rejects names that could leave the storage folder ("..", absolute paths, odd characters). */
export function assertDocumentName(name: string): void {
  const segments = name.split("/");
  if (segments.length === 0 || segments.some((segment) => !SEGMENT.test(segment) || segment.includes(".."))) {
    throw new Error(`"${name}" is not a valid storage name.`);
  }
}
