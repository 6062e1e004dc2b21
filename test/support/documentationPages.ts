// The project's user documentation as the tests read it: README.md (its first screen and the pictures the
// extension page shows) and the topic pages under docs/ it links to.
import * as fs from "node:fs";
import * as path from "node:path";

export const repoRoot = path.join(__dirname, "..", "..");
export const imagesDir = path.join(repoRoot, "docs", "images");

export interface DocumentationPage {
  /** Relative to the repository root: "README.md", "docs/relays.md". */
  file: string;
  text: string;
}

/** README.md, then every docs/*.md page. */
export function documentationPages(): DocumentationPage[] {
  const docs = fs
    .readdirSync(path.join(repoRoot, "docs"))
    .filter((file) => file.endsWith(".md"))
    .sort()
    .map((file) => `docs/${file}`);
  return ["README.md", ...docs].map((file) => ({ file, text: fs.readFileSync(path.join(repoRoot, file), "utf8") }));
}

/** A picture a page shows: its file name in docs/images and the width the page gives it (Infinity: none). */
export interface ShownImage {
  file: string;
  width: number;
}

/** The docs/images pictures a page shows, as <img src=…> or ![…](…), resolved from the page's own folder. */
export function imagesShown(page: DocumentationPage): ShownImage[] {
  const links = [...page.text.matchAll(/<img src="([^"]+)"([^>]*)>|!\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => ({
    link: (match[1] ?? match[3]) as string,
    width: Number(/\bwidth="(\d+)"/.exec(match[2] ?? "")?.[1] ?? Number.POSITIVE_INFINITY),
  }));
  return links
    .filter(({ link }) => !/^\w+:/.test(link))
    .map(({ link, width }) => ({ file: path.relative(imagesDir, path.join(repoRoot, path.dirname(page.file), link)), width }));
}
