import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { englishBundle, repositoryRoot } from "../../scripts/l10n/extractStrings";

// Every string the extension shows goes through the l10n bundles, and every translation that exists is
// complete: a string without a translation fails here, not in front of a user.

function readJson(file: string): Record<string, string> {
  return JSON.parse(readFileSync(path.join(repositoryRoot, file), "utf8")) as Record<string, string>;
}

/** What a translation lacks or breaks, as sentences. */
function translationProblems(source: Record<string, string>, translated: Record<string, string>): string[] {
  const problems: string[] = [];
  for (const [key, english] of Object.entries(source)) {
    const text = translated[key];
    if (typeof text !== "string" || text.trim() === "") {
      problems.push(`missing: ${JSON.stringify(key)}`);
      continue;
    }
    const placeholders = (value: string) => [...value.matchAll(/\{(\d+)\}/g)].map((match) => match[1]).sort().join(",");
    if (placeholders(text) !== placeholders(english)) problems.push(`placeholders differ: ${JSON.stringify(key)}`);
  }
  for (const key of Object.keys(translated)) if (!(key in source)) problems.push(`not used any more: ${JSON.stringify(key)}`);
  return problems;
}

const translations = (pattern: RegExp, folder: string) => readdirSync(path.join(repositoryRoot, folder)).filter((name) => pattern.test(name));

describe("localization", () => {
  it("lists every string of the host and the webview in l10n/bundle.l10n.json (run `npm run l10n` after changing strings)", () => {
    assert.deepEqual(readJson("l10n/bundle.l10n.json"), englishBundle());
  });

  it("defines every %key% of package.json in package.nls.json, and nothing else", () => {
    const manifest = readFileSync(path.join(repositoryRoot, "package.json"), "utf8");
    const used = new Set([...manifest.matchAll(/"%([^"%]+)%"/g)].map((match) => match[1]));
    assert.deepEqual(Object.keys(readJson("package.nls.json")).sort(), [...used].sort());
  });

  it("translates every string in each language it offers", () => {
    const english = readJson("l10n/bundle.l10n.json");
    for (const file of translations(/^bundle\.l10n\.[a-z-]+\.json$/i, "l10n")) {
      assert.deepEqual(translationProblems(english, readJson(`l10n/${file}`)), [], `l10n/${file}`);
    }
    const manifest = readJson("package.nls.json");
    for (const file of translations(/^package\.nls\.[a-z-]+\.json$/i, "")) {
      assert.deepEqual(translationProblems(manifest, readJson(file)), [], file);
    }
  });

  it("says counts in words that fit the count: no string hedges with (s) (\"1 file(s) to review\")", () => {
    const hedged = Object.keys(readJson("l10n/bundle.l10n.json")).filter((english) => /\w\(s\)/.test(english));
    assert.deepEqual(hedged, [], "write the one and the many forms, chosen by the count");
  });

  it("would catch a missing translation, a lost placeholder and a stale entry (the check can fail)", () => {
    const source = { Send: "Send", "{0} requests": "{0} requests" };
    assert.deepEqual(translationProblems(source, { Send: "发送", "{0} requests": "{0} 个请求" }), []);
    assert.deepEqual(translationProblems(source, { Send: "发送", "{0} requests": "请求", Old: "旧" }), ['placeholders differ: "{0} requests"', 'not used any more: "Old"']);
    assert.deepEqual(translationProblems(source, { "{0} requests": "{0} 个请求" }), ['missing: "Send"']);
  });
});
