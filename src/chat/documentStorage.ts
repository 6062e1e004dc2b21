// The small storage interface history and ledger are written against. Names are relative, "/"-separated
// and limited to safe characters; each implementation decides where they live (files, memory, ...).

export interface DocumentStorage {
  /** The text of a document, or null when it does not exist. Throws only when it exists but cannot be read. */
  read(name: string): Promise<string | null>;
  /** Replaces a document so that a reader sees either the old or the new text, never a mix, even after a crash. */
  writeAtomically(name: string, text: string): Promise<void>;
  /** Appends to a document (created if missing); used for append-only logs. */
  append(name: string, text: string): Promise<void>;
  /** Names of the documents directly inside a folder ("" for the top), without temporary files. */
  list(folder: string): Promise<string[]>;
  /** Removes a document; no error when it is already gone. */
  remove(name: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Rejects names that could leave the storage folder ("..", absolute paths, odd characters). */
export function assertDocumentName(name: string): void {
  const segments = name.split("/");
  if (segments.length === 0 || segments.some((segment) => !SEGMENT.test(segment) || segment.includes(".."))) {
    throw new Error(`"${name}" is not a valid storage name.`);
  }
}
