// A stand-in Chinese (Simplified) language pack (test/fixtures/zhLanguagePack), so code-server runs with
// the zh-cn display language and Relay Chat loads its own Chinese bundles (l10n/bundle.l10n.zh-cn.json,
// package.nls.zh-cn.json): the UI test of the Chinese panel and `npm run demo -- --locale zh-cn` use it.
// VS Code itself stays English, since this pack translates none of its strings.
//
// The pack is unpacked into the profile's extensions folder, and the profile's languagepacks.json (which
// VS Code writes when it installs a language pack itself) is written to point the locale at it.
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./paths.mjs";

const packPath = path.join(repoRoot, "test", "fixtures", "zhLanguagePack");

/** Makes `locale` ("zh-cn") available to a code-server started with `--locale zh-cn` on this profile. */
export function installTestLanguagePack(locale, { userDataDir, extensionsDir }) {
  const manifest = JSON.parse(readFileSync(path.join(packPath, "package.json"), "utf8"));
  const localization = manifest.contributes.localizations.find((entry) => entry.languageId === locale);
  if (!localization) throw new Error(`the test language pack offers only ${manifest.contributes.localizations.map((entry) => entry.languageId).join(", ")}, not ${locale}`);
  const id = `${manifest.publisher}.${manifest.name}`;
  const folder = path.join(extensionsDir, `${id}-${manifest.version}`);
  cpSync(packPath, folder, { recursive: true });
  const translations = Object.fromEntries(localization.translations.map((entry) => [entry.id, path.join(folder, entry.path)]));
  const packs = { [locale]: { hash: `${id}-${manifest.version}`, extensions: [{ extensionIdentifier: { id }, version: manifest.version }], translations, label: localization.localizedLanguageName } };
  writeFileSync(path.join(userDataDir, "languagepacks.json"), JSON.stringify(packs));
}
