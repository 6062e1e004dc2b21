import { createHash } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, renameSync, writeFileSync, writeSync } from "node:fs";
import * as path from "node:path";
import { crc32 as zlibCrc32, deflateSync } from "node:zlib";

// Objects written straight into the shadow repository, in git's own formats: several as one pack instead of
// one loose file each (a checkpoint's new blobs and trees cost two new files, the pack and its index, rather
// than one each: creating a file is what writing a small object costs most, 0.25-1 ms on the benchmark's ext4),
// and single objects (a commit) as loose files. The formats are git's version 2 pack and pack index
// (Documentation/gitformat-pack.txt), whole objects only (no deltas), and the zlib-compressed loose object
// named by its SHA-1. Every file is written through a temporary file renamed into place, as git does; the pack
// before its index (git reads a pack only once its index is there). Written synchronously: a few file
// operations cost less so than as promises, each a trip through libuv's thread pool.

export interface PackObject {
  /** The object id (SHA-1 of "<type> <size>\0<content>"), already known to the caller. */
  id: string;
  type: "commit" | "tree" | "blob";
  content: Buffer;
}

const typeCodes = { commit: 1, tree: 2, blob: 3 } as const;

/** An object's id, known before it is written (a tree names its subtrees' ids). */
export function objectId(type: PackObject["type"], content: Buffer): string {
  return createHash("sha1").update(`${type} ${content.length}\0`, "latin1").update(content).digest("hex");
}

/**
 * A pack being gathered: each object is compressed as it is added (so the caller's buffer can be reused at once)
 * and appended to one growing body; `write` puts the pack and its index into the repository.
 */
export class PackBuilder {
  private body = Buffer.allocUnsafe(64 * 1024);
  private length = 0;
  private readonly entries: { id: Buffer; offset: number; crc: number }[] = [];

  get count(): number {
    return this.entries.length;
  }

  /** Bytes gathered so far (compressed). */
  get size(): number {
    return this.length;
  }

  add(object: PackObject): void {
    const objectHeader = packedObjectHeader(typeCodes[object.type], object.content.length);
    const compressed = compress(object.content);
    // Offsets count from the pack's start, after its 12-byte header.
    this.entries.push({ id: Buffer.from(object.id, "hex"), offset: 12 + this.length, crc: crc32(compressed, crc32(objectHeader)) });
    this.append(objectHeader);
    this.append(compressed);
  }

  /** Writes the pack and its index into `gitDir`'s objects/pack; returns the pack's name. */
  write(gitDir: string): string {
    const header = Buffer.alloc(12);
    header.write("PACK", 0, "latin1");
    header.writeUInt32BE(2, 4);
    header.writeUInt32BE(this.entries.length, 8);
    const body = this.body.subarray(0, this.length);
    const packChecksum = createHash("sha1").update(header).update(body).digest();
    const name = `pack-${packChecksum.toString("hex")}`;
    const directory = path.join(gitDir, "objects", "pack");
    if (existsSync(path.join(directory, `${name}.idx`))) return name;
    mkdirSync(directory, { recursive: true });
    // Its pack may be there without its index (a write stopped in between): the same name is the same content.
    if (!existsSync(path.join(directory, `${name}.pack`))) placeFile(directory, `${name}.pack`, [header, body, packChecksum]);
    placeFile(directory, `${name}.idx`, [packIndex(this.entries, packChecksum)]);
    return name;
  }

  private append(bytes: Buffer): void {
    if (this.length + bytes.length > this.body.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.body.length * 2, this.length + bytes.length));
      this.body.copy(grown, 0, 0, this.length);
      this.body = grown;
    }
    bytes.copy(this.body, this.length);
    this.length += bytes.length;
  }
}

/** Writes `objects` as one pack with its index into `gitDir`'s objects/pack; returns the pack's name. */
export function writePack(gitDir: string, objects: readonly PackObject[]): string {
  const pack = new PackBuilder();
  for (const object of objects) pack.add(object);
  return pack.write(gitDir);
}

/** Writes one object as a loose file unless it is there; returns its id. */
export function writeLooseObject(gitDir: string, type: PackObject["type"], content: Buffer, id = objectId(type, content)): string {
  const directory = path.join(gitDir, "objects", id.slice(0, 2));
  const file = path.join(directory, id.slice(2));
  if (existsSync(file)) return id;
  mkdirSync(directory, { recursive: true });
  const stored = compress(Buffer.concat([Buffer.from(`${type} ${content.length}\0`, "latin1"), content]));
  const temporary = path.join(directory, `tmp_obj_relay_${process.pid}_${Date.now()}_${id.slice(2, 10)}`);
  writeFileSync(temporary, stored, { flag: "wx", mode: 0o444 });
  renameSync(temporary, file);
  return id;
}

/**
 * zlib at level 1, its window and hash sized to the object: most objects are a few KB, and zlib's default state
 * (256 KB, allocated and freed per object) and 16 KB output chunk (kept alive by the result that slices it) made
 * compressing 10,000 small files 2-10 times slower than this, for the same output.
 */
function compress(content: Buffer): Buffer {
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(content.length + 262))));
  return deflateSync(content, { level: 1, windowBits, memLevel: Math.max(1, Math.min(8, windowBits - 6)), chunkSize: Math.max(64, content.length + 64) });
}

/** Type and size: 3 bits of type and 4 of size in the first byte, 7 more bits of size per byte after it. */
function packedObjectHeader(type: number, size: number): Buffer {
  const bytes = [(type << 4) | (size & 0x0f)];
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes[bytes.length - 1] |= 0x80;
    bytes.push(rest & 0x7f);
    rest = Math.floor(rest / 128);
  }
  return Buffer.from(bytes);
}

/** Pack index version 2: fan-out table, sorted ids, their CRC-32s and offsets, the pack's checksum, its own. */
function packIndex(entries: { id: Buffer; offset: number; crc: number }[], packChecksum: Buffer): Buffer {
  const sorted = [...entries].sort((a, b) => Buffer.compare(a.id, b.id));
  const fanout = Buffer.alloc(256 * 4);
  for (let byte = 0, position = 0; byte < 256; byte += 1) {
    while (position < sorted.length && sorted[position].id[0] <= byte) position += 1;
    fanout.writeUInt32BE(position, byte * 4);
  }
  const crcs = Buffer.alloc(sorted.length * 4);
  const offsets = Buffer.alloc(sorted.length * 4);
  sorted.forEach((entry, position) => {
    crcs.writeUInt32BE(entry.crc, position * 4);
    // Offsets from 2 GiB on need the large-offset table; packs here are cut at tens of megabytes.
    if (entry.offset >= 0x80000000) throw new Error("pack too large for a 4-byte offset");
    offsets.writeUInt32BE(entry.offset, position * 4);
  });
  const body = Buffer.concat([Buffer.from([0xff, 0x74, 0x4f, 0x63, 0, 0, 0, 2]), fanout, ...sorted.map((entry) => entry.id), crcs, offsets, packChecksum]);
  return Buffer.concat([body, createHash("sha1").update(body).digest()]);
}

function placeFile(directory: string, name: string, parts: readonly Buffer[]): void {
  const temporary = path.join(directory, `tmp_${name}_${process.pid}_${Date.now()}`);
  const descriptor = openSync(temporary, "wx", 0o444);
  try {
    for (const part of parts) writeSync(descriptor, part);
  } finally {
    closeSync(descriptor);
  }
  renameSync(temporary, path.join(directory, name));
}

/** CRC-32 (the zlib polynomial), continuing from `previous`. */
export function crc32(data: Buffer, previous = 0): number {
  return zlibCrc32(data, previous);
}
