// The README's screenshots ship inside the VSIX (the extension page shows them offline), so they decide most of
// its size: each is WebP (scripts/readmeImages.mjs), no wider than the README shows it, every file in
// docs/images is one the README shows, and together they stay small enough for a VSIX under 1 MB
// (`npm run package` checks the package itself with scripts/checkVsixSize.mjs).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { imageSize } from "image-size";

const root = path.join(__dirname, "..", "..");
const imagesDir = path.join(root, "docs", "images");
const maxImagesBytes = 320 * 1024;

describe("README screenshots", () => {
  const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
  const shown = [...readme.matchAll(/<img src="docs\/images\/([^"]+)"([^>]*)>|!\[[^\]]*\]\(docs\/images\/([^)\s]+)\)/g)].map((match) => ({
    file: (match[1] ?? match[3]) as string,
    width: Number(/\bwidth="(\d+)"/.exec(match[2] ?? "")?.[1] ?? Number.POSITIVE_INFINITY),
  }));

  it("are WebP, no wider than the README shows them", () => {
    assert.ok(shown.length > 0);
    for (const { file, width } of shown) {
      const size = imageSize(fs.readFileSync(path.join(imagesDir, file)));
      assert.equal(size.type, "webp", `docs/images/${file} is WebP (scripts/readmeImages.mjs makes it from a PNG)`);
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
