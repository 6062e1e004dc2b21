// Writes l10n/bundle.l10n.json from the sources (npm run l10n). Translations live beside it as
// l10n/bundle.l10n.<language>.json, and the manifest's as package.nls.<language>.json;
// test/unit/l10n.test.ts fails when either lacks a string.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { englishBundle, repositoryRoot } from "./extractStrings";

const bundle = englishBundle();
writeFileSync(path.join(repositoryRoot, "l10n", "bundle.l10n.json"), `${JSON.stringify(bundle, null, 2)}\n`);
console.log(`l10n/bundle.l10n.json: ${Object.keys(bundle).length} strings`);
