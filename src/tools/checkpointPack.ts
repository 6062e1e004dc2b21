import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { deflateSync } from "node:zlib";

// Several new objects written as one pack instead of one loose file each: a checkpoint's 20-odd folder trees
// cost two new files (the pack and its index) rather than 20-odd, and creating a file is what writing a small
// object costs most (on the benchmark's ext4, 0.25-1 ms each, mostly the file system finding a free inode).
// The formats are git's version 2 pack and pack index (Documentation/gitformat-pack.txt), whole objects
// only (no deltas); the pack is named by its checksum, written before its index (git reads a pack only
// once its index is there), each through a temporary file renamed into place, as git does.

export interface PackObject {
  /** The object id (SHA-1 of "<type> <size>\0<content>"), already known to the caller. */
  id: string;
  type: "commit" | "tree" | "blob";
  content: Buffer;
}

const typeCodes = { commit: 1, tree: 2, blob: 3 } as const;

/** Writes `objects` as one pack with its index into `gitDir`'s objects/pack; returns the pack's name. */
export function writePack(gitDir: string, objects: readonly PackObject[]): string {
  const header = Buffer.alloc(12);
  header.write("PACK", 0, "latin1");
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(objects.length, 8);
  const parts: Buffer[] = [header];
  const entries: { id: Buffer; offset: number; crc: number }[] = [];
  let offset = header.length;
  for (const object of objects) {
    const objectHeader = packedObjectHeader(typeCodes[object.type], object.content.length);
    const compressed = deflateSync(object.content, { level: 1 });
    entries.push({ id: Buffer.from(object.id, "hex"), offset, crc: crc32(compressed, crc32(objectHeader)) });
    parts.push(objectHeader, compressed);
    offset += objectHeader.length + compressed.length;
  }
  const body = Buffer.concat(parts);
  const packChecksum = createHash("sha1").update(body).digest();
  const name = `pack-${packChecksum.toString("hex")}`;
  const directory = path.join(gitDir, "objects", "pack");
  if (existsSync(path.join(directory, `${name}.idx`))) return name;
  mkdirSync(directory, { recursive: true });
  // Its pack may be there without its index (a write stopped in between): the same name is the same content.
  if (!existsSync(path.join(directory, `${name}.pack`))) placeFile(directory, `${name}.pack`, Buffer.concat([body, packChecksum]));
  placeFile(directory, `${name}.idx`, packIndex(entries, packChecksum));
  return name;
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
    // Offsets from 2 GiB on need the large-offset table; a checkpoint's trees are far from that.
    if (entry.offset >= 0x80000000) throw new Error("pack too large for a 4-byte offset");
    offsets.writeUInt32BE(entry.offset, position * 4);
  });
  const body = Buffer.concat([Buffer.from([0xff, 0x74, 0x4f, 0x63, 0, 0, 0, 2]), fanout, ...sorted.map((entry) => entry.id), crcs, offsets, packChecksum]);
  return Buffer.concat([body, createHash("sha1").update(body).digest()]);
}

function placeFile(directory: string, name: string, content: Buffer): void {
  const temporary = path.join(directory, `tmp_${name}_${process.pid}_${Date.now()}`);
  writeFileSync(temporary, content, { flag: "wx", mode: 0o444 });
  renameSync(temporary, path.join(directory, name));
}

let crcTable: Uint32Array | undefined;

/** CRC-32 (the zlib polynomial), continuing from `previous`; zlib.crc32 is newer than some editors' Node. */
export function crc32(data: Buffer, previous = 0): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let byte = 0; byte < 256; byte += 1) {
      let value = byte;
      for (let bit = 0; bit < 8; bit += 1) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
      crcTable[byte] = value >>> 0;
    }
  }
  let crc = ~previous >>> 0;
  for (let position = 0; position < data.length; position += 1) crc = crcTable[(crc ^ data[position]) & 0xff] ^ (crc >>> 8);
  return ~crc >>> 0;
}
