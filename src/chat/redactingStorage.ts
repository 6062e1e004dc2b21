import type { DocumentStorage } from "./documentStorage";
import { IMAGE_FOLDER } from "./imageStore";

// The last guard of the history: every text the history store writes (journal records, snapshots, the list's
// lines) passes through `redact` first, so a relay key that reached a conversation by any way the other guards
// missed is still not written to conversations/*.jsonl. The attachments, rules files and tool outputs are
// redacted where they come in; this catches what is left (a key typed into a message, a model quoting one).
// Stored images (base64 under their content's hash) are bytes, not text: they are written as they are.

export function redactingStorage(storage: DocumentStorage, redact: (text: string) => string): DocumentStorage {
  const textOf = (name: string, text: string) => (name.startsWith(`${IMAGE_FOLDER}/`) ? text : redact(text));
  return {
    read: (name) => storage.read(name),
    writeAtomically: (name, text) => storage.writeAtomically(name, textOf(name, text)),
    createExclusively: (name, text) => storage.createExclusively(name, textOf(name, text)),
    append: (name, text, options) => storage.append(name, textOf(name, text), options),
    list: (folder) => storage.list(folder),
    modifiedAt: (name) => storage.modifiedAt(name),
    touch: (name) => storage.touch(name),
    remove: (name) => storage.remove(name),
    rename: (from, to) => storage.rename(from, to),
    ...(storage.watch ? { watch: storage.watch.bind(storage) } : {}),
  };
}
