import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { WEBVIEW_STRINGS } from "../../src/panel/webviewStrings";

// The host translates exactly the strings in WEBVIEW_STRINGS; one the webview uses but the list lacks
// would stay English in every other language.
describe("Chat panel webview: UI strings", () => {
  const mediaRoot = join(__dirname, "..", "..", "media");
  const sources = [join(mediaRoot, "main.ts"), ...["panel", "render"].flatMap((folder) => readdirSync(join(mediaRoot, folder)).map((name) => join(mediaRoot, folder, name)))]
    .filter((path) => path.endsWith(".ts"))
    .map((path) => readFileSync(path, "utf8"));

  function usedStrings(): Set<string> {
    const used = new Set<string>(["read", "write", "execute", "external"]);
    for (const source of sources) {
      for (const match of source.matchAll(/\.(?:text|format)\(\s*"((?:[^"\\]|\\.)*)"/g)) used.add(JSON.parse(`"${match[1]}"`) as string);
      // Plurals: `.plural(count, "{0} request", "{0} requests")`, both forms.
      for (const match of source.matchAll(/\.plural\([^,]+,\s*"((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)"/g)) {
        used.add(JSON.parse(`"${match[1]}"`) as string);
        used.add(JSON.parse(`"${match[2]}"`) as string);
      }
      // Label tables (fix buttons, risk explanations): `key: "English text",` lines that are not class names.
      for (const match of source.matchAll(/^\s+(\w+): "((?:[^"\\]|\\.)*)",?$/gm)) {
        if (match[1] !== "className") used.add(JSON.parse(`"${match[2]}"`) as string);
      }
    }
    return used;
  }

  it("lists every string the webview localizes", () => {
    const listed = new Set(WEBVIEW_STRINGS);
    const missing = [...usedStrings()].filter((text) => !listed.has(text));
    assert.deepEqual(missing, []);
  });

  it("lists nothing twice and nothing unused", () => {
    assert.equal(new Set(WEBVIEW_STRINGS).size, WEBVIEW_STRINGS.length);
    const used = usedStrings();
    assert.deepEqual(WEBVIEW_STRINGS.filter((text) => !used.has(text)), []);
  });
});
