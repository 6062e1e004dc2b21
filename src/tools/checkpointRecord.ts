import { readFileSync, renameSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { DirNode, FileNode } from "./checkpointScan";

// The scan's picture of a workspace folder (checkpointScan), kept in the shadow repository between windows and
// sessions, so the first checkpoint of a new window reads only the files that changed, as git's index lets
// `git add` do. It is a cache: every blob and tree id in it is stored in the repository before it is written
// (checkpointStore), and a picture from another window or an older checkpoint is as good as a new one, since a
// file is read again whenever its stat data differs. So it is written whole (a temporary file renamed into place)
// and anything unreadable in it (another version, a truncated file) is simply not used.

const magic = "RCP1";
const fileName = "relay-chat-picture";

export interface StoredPicture {
  /** The exclude globs the picture was classified with (ExcludeRules.key). */
  excludesKey: string;
  root: DirNode;
}

export function pictureFile(gitDir: string): string {
  return path.join(gitDir, fileName);
}

export function loadPicture(gitDir: string): StoredPicture | null {
  let buffer: Buffer;
  try {
    buffer = readFileSync(pictureFile(gitDir));
  } catch {
    return null;
  }
  try {
    const reader = new Reader(buffer);
    if (reader.string() !== magic) return null;
    const excludesKey = reader.string();
    const root = reader.directory();
    return reader.atEnd() ? { excludesKey, root } : null;
  } catch {
    return null;
  }
}

export function savePicture(gitDir: string, picture: StoredPicture): void {
  const writer = new Writer();
  writer.string(magic);
  writer.string(picture.excludesKey);
  writer.directory(picture.root);
  const file = pictureFile(gitDir);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, writer.finish());
  renameSync(temporary, file);
}

const flagLink = 1;
const flagRacy = 2;
const flagOid = 4;

class Writer {
  private buffer = Buffer.allocUnsafe(1 << 20);
  private offset = 0;

  string(text: string): void {
    this.reserve(4 + text.length * 3);
    const length = this.buffer.write(text, this.offset + 4, "utf8");
    this.buffer.writeUInt32LE(length, this.offset);
    this.offset += 4 + length;
  }

  directory(node: DirNode): void {
    this.reserve(8);
    this.buffer.writeUInt32LE(node.listing.length, this.offset);
    this.offset += 4;
    for (const name of node.listing) this.string(name);
    this.string(node.gitignoreStamp);
    this.string(node.tree ?? "");
    this.reserve(4);
    this.buffer.writeUInt32LE(node.files.size, this.offset);
    this.offset += 4;
    for (const [name, file] of node.files) this.file(name, file);
    this.reserve(4);
    this.buffer.writeUInt32LE(node.dirs.size, this.offset);
    this.offset += 4;
    for (const [name, directory] of node.dirs) {
      this.string(name);
      this.directory(directory);
    }
  }

  finish(): Buffer {
    return this.buffer.subarray(0, this.offset);
  }

  private file(name: string, file: FileNode): void {
    this.string(name);
    this.reserve(3 + 32 + 20);
    const buffer = this.buffer;
    buffer[this.offset] = (file.link ? flagLink : 0) | (file.racy ? flagRacy : 0) | (file.oid !== null ? flagOid : 0);
    buffer.writeUInt16LE(file.perm, this.offset + 1);
    buffer.writeDoubleLE(file.size, this.offset + 3);
    buffer.writeDoubleLE(file.mtimeMs, this.offset + 11);
    buffer.writeDoubleLE(file.ctimeMs, this.offset + 19);
    buffer.writeDoubleLE(file.ino, this.offset + 27);
    this.offset += 35;
    if (file.oid !== null) this.offset += buffer.write(file.oid, this.offset, "hex");
  }

  private reserve(bytes: number): void {
    if (this.offset + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.offset + bytes));
    this.buffer.copy(grown, 0, 0, this.offset);
    this.buffer = grown;
  }
}

class Reader {
  private offset = 0;

  constructor(private readonly buffer: Buffer) {}

  atEnd(): boolean {
    return this.offset === this.buffer.length;
  }

  string(): string {
    const length = this.uint32();
    const end = this.offset + length;
    if (end > this.buffer.length) throw new RangeError("truncated");
    const text = this.buffer.toString("utf8", this.offset, end);
    this.offset = end;
    return text;
  }

  directory(): DirNode {
    const listing: string[] = [];
    for (let count = this.uint32(); count > 0; count -= 1) listing.push(this.string());
    const gitignoreStamp = this.string();
    const tree = this.string();
    const files = new Map<string, FileNode>();
    for (let count = this.uint32(); count > 0; count -= 1) {
      const name = this.string();
      files.set(name, this.file());
    }
    const dirs = new Map<string, DirNode>();
    for (let count = this.uint32(); count > 0; count -= 1) {
      const name = this.string();
      dirs.set(name, this.directory());
    }
    return { listing, files, dirs, gitignoreStamp, tree: /^[0-9a-f]{40}$/.test(tree) ? tree : null };
  }

  private file(): FileNode {
    const buffer = this.buffer;
    if (this.offset + 35 > buffer.length) throw new RangeError("truncated");
    const flags = buffer[this.offset];
    const file: FileNode = {
      link: (flags & flagLink) !== 0,
      racy: (flags & flagRacy) !== 0,
      perm: buffer.readUInt16LE(this.offset + 1),
      size: buffer.readDoubleLE(this.offset + 3),
      mtimeMs: buffer.readDoubleLE(this.offset + 11),
      ctimeMs: buffer.readDoubleLE(this.offset + 19),
      ino: buffer.readDoubleLE(this.offset + 27),
      oid: null,
    };
    this.offset += 35;
    if (flags & flagOid) {
      if (this.offset + 20 > buffer.length) throw new RangeError("truncated");
      file.oid = buffer.toString("hex", this.offset, this.offset + 20);
      this.offset += 20;
    }
    return file;
  }

  private uint32(): number {
    if (this.offset + 4 > this.buffer.length) throw new RangeError("truncated");
    const value = this.buffer.readUInt32LE(this.offset);
    this.offset += 4;
    return value;
  }
}
