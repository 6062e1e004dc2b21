// The README's screenshots ship inside the VSIX (the extension page shows them offline), so they decide most of
// its size; the docs/ pages' pictures live beside them in docs/images but stay in the repository. Each is WebP
// (scripts/readmeImages.mjs), no wider than its page shows it, every file in docs/images is one a page shows,
// and together they stay small (`npm run package` checks the package itself with scripts/checkVsixSize.mjs;
// test/unit/manifestContributions.test.ts checks that the VSIX carries the README's and no others).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { imageSize } from "image-size";
import { documentationPages, imagesDir, imagesShown } from "../support/documentationPages";

// The pictures travel in the VSIX: about 330 KB for 14 screenshots (one more for Edit in place, issue 40).
const maxImagesBytes = 340 * 1024;

describe("README and docs screenshots", () => {
  const pages = documentationPages();
  const shown = pages.flatMap((page) => imagesShown(page).map((image) => ({ ...image, page: page.file })));

  it("are WebP, no wider than their page shows them", () => {
    assert.ok(imagesShown(pages[0]!).length > 0, "the README shows pictures");
    for (const { file, width, page } of shown) {
      assert.ok(!file.startsWith(".."), `${page} shows ${file}, which is not in docs/images`);
      const size = imageSize(fs.readFileSync(path.join(imagesDir, file)));
      assert.equal(size.type, "webp", `docs/images/${file} is WebP (scripts/readmeImages.mjs makes it from a PNG)`);
      assert.ok(size.width <= width, `docs/images/${file} is ${size.width} px wide, ${page} shows it at ${width}`);
    }
  });

  it("are only the ones the README and the docs pages show, and stay small", () => {
    const files = fs.readdirSync(imagesDir).sort();
    assert.deepEqual(files, [...new Set(shown.map(({ file }) => file))].sort(), "docs/images holds exactly the pages' pictures");
    const total = files.reduce((sum, file) => sum + fs.statSync(path.join(imagesDir, file)).size, 0);
    assert.ok(total <= maxImagesBytes, `docs/images is ${Math.round(total / 1024)} KB, over ${maxImagesBytes / 1024} KB`);
  });
});
