// The README's screenshots ship inside the VSIX (the extension page shows them offline), so they decide most of
// its size: each is WebP (scripts/readmeImages.mjs), no wider than the README shows it, every file in
// docs/images is one the README shows, and together they stay small enough for a VSIX under 1 MB
// (`npm run package` checks the package itself with scripts/checkVsixSize.mjs).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";

const root = path.join(__dirname, "..", "..");
const imagesDir = path.join(root, "docs", "images");
const maxImagesBytes = 320 * 1024;

/** Width and height of a WebP file (lossy VP8, lossless VP8L or extended VP8X), or undefined for anything else. */
function webpSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.subarray(0, 4).toString("latin1") !== "RIFF" || bytes.subarray(8, 12).toString("latin1") !== "WEBP") return undefined;
  const chunk = bytes.subarray(12, 16).toString("latin1");
  if (chunk === "VP8 ") return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  if (chunk === "VP8L") {
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  return undefined;
}

describe("README screenshots", () => {
  const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
  const shown = [...readme.matchAll(/<img src="docs\/images\/([^"]+)"([^>]*)>|!\[[^\]]*\]\(docs\/images\/([^)\s]+)\)/g)].map((match) => ({
    file: (match[1] ?? match[3]) as string,
    width: Number(/\bwidth="(\d+)"/.exec(match[2] ?? "")?.[1] ?? Number.POSITIVE_INFINITY),
  }));

  it("are WebP, no wider than the README shows them", () => {
    assert.ok(shown.length > 0);
    for (const { file, width } of shown) {
      const size = webpSize(fs.readFileSync(path.join(imagesDir, file)));
      assert.ok(size, `docs/images/${file} is WebP (scripts/readmeImages.mjs makes it from a PNG)`);
      assert.ok(size.width <= width, `docs/images/${file} is ${size.width} px wide, the README shows it at ${width}`);
    }
  });

  it("are only the ones the README shows, small enough for a VSIX under 1 MB", () => {
    const files = fs.readdirSync(imagesDir).sort();
    assert.deepEqual(files, [...new Set(shown.map(({ file }) => file))].sort(), "docs/images holds exactly the README's pictures");
    const total = files.reduce((sum, file) => sum + fs.statSync(path.join(imagesDir, file)).size, 0);
    assert.ok(total <= maxImagesBytes, `docs/images is ${Math.round(total / 1024)} KB, over ${maxImagesBytes / 1024} KB`);
  });
});
