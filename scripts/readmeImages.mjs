// Re-encodes screenshots as the WebP pictures the README and the docs/ pages show (docs/images/NAME.webp), at the
// width the page gives them, so the VSIX that carries the README's stays small. Offline: Debian's Chromium draws the PNG on a canvas and
// encodes it (no image library needed).
//   node scripts/readmeImages.mjs test-results/ui/layout-480-dark-1-answer.png=panel-480-dark-1-answer
//   node scripts/readmeImages.mjs SOURCE.png[=NAME] ...   (NAME defaults to the PNG's name)
// The width is the `width="N"` of the <img> for docs/images/NAME.webp in README.md or docs/*.md (the image's own
// width when the page gives none or a larger one); --width N overrides it. The UI test that makes the panel screenshots calls
// this with RELAY_CHAT_UPDATE_SCREENSHOTS=1.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromiumArgs, chromiumPath, repoRoot } from "./vscode/paths.mjs";

/** WebP quality: text stays sharp at the README's widths, and twelve screenshots fit in about 250 KB. */
const quality = 0.82;
const imagesDir = path.join(repoRoot, "docs", "images");

/** The width `pages` (the README's text, or a docs/ page's: src="images/…") show docs/images/NAME.webp at, or undefined when they give none. */
export function readmeWidth(pages, name) {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const tag = pages.match(new RegExp(`<img[^>]*src="(?:docs/)?images/${escaped}\\.webp"[^>]*>`));
  const width = tag?.[0].match(/\bwidth="(\d+)"/);
  return width ? Number(width[1]) : undefined;
}

/** Encodes each { source, name, width } as docs/images/NAME.webp; resolves to [{ file, width, height, bytes }]. */
export async function writeReadmeImages(jobs) {
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
  try {
    const page = await browser.newPage();
    const written = [];
    for (const job of jobs) {
      const png = `data:image/png;base64,${readFileSync(job.source).toString("base64")}`;
      const encoded = await page.evaluate(
        async ({ png, width, quality }) => {
          const image = new Image();
          image.src = png;
          await image.decode();
          const scale = width && width < image.naturalWidth ? width / image.naturalWidth : 1;
          const canvas = document.createElement("canvas");
          canvas.width = Math.round(image.naturalWidth * scale);
          canvas.height = Math.round(image.naturalHeight * scale);
          const context = canvas.getContext("2d");
          context.imageSmoothingQuality = "high";
          context.drawImage(image, 0, 0, canvas.width, canvas.height);
          return { url: canvas.toDataURL("image/webp", quality), width: canvas.width, height: canvas.height };
        },
        { png, width: job.width, quality },
      );
      if (!encoded.url.startsWith("data:image/webp;base64,")) throw new Error(`Chromium did not encode WebP for ${job.source}`);
      const bytes = Buffer.from(encoded.url.slice(encoded.url.indexOf(",") + 1), "base64");
      const file = path.join(imagesDir, `${job.name}.webp`);
      writeFileSync(file, bytes);
      written.push({ file, width: encoded.width, height: encoded.height, bytes: bytes.length });
    }
    return written;
  } finally {
    await browser.close();
  }
}

async function main() {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { width: { type: "string" } } });
  if (positionals.length === 0) {
    console.error("usage: node scripts/readmeImages.mjs [--width N] SOURCE.png[=NAME] ...");
    process.exit(2);
  }
  const docsDir = path.join(repoRoot, "docs");
  const pages = [path.join(repoRoot, "README.md"), ...readdirSync(docsDir).filter((file) => file.endsWith(".md")).map((file) => path.join(docsDir, file))];
  const readme = pages.map((page) => readFileSync(page, "utf8")).join("\n");
  const jobs = positionals.map((argument) => {
    const [source, givenName] = argument.split("=");
    const name = givenName ?? path.basename(source, ".png");
    const width = values.width ? Number(values.width) : readmeWidth(readme, name);
    return { source: path.resolve(source), name, width };
  });
  for (const { file, width, height, bytes } of await writeReadmeImages(jobs)) {
    console.log(`${path.relative(repoRoot, file)} ${width}x${height} ${(bytes / 1024).toFixed(1)} KB`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
