import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

// The panel's own layering: vscode only in the thin adapter, everything else runs (and is tested) on Node.

const root = path.resolve(__dirname, "../..");
// codeBlockActions.ts: the code block buttons that need the editor (open as a document, apply through the diff review).
const PANEL_ADAPTER = ["src/panel/chatViewProvider.ts", "src/panel/editor/codeBlockActions.ts", "src/panel/vscodePanelServices.ts"];
const IMPORT_OF_VSCODE = /(?:from\s+["']vscode["']|require\(\s*["']vscode["']\s*\)|import\(\s*["']vscode["']\s*\))/;

function sources(folder: string): string[] {
  return readdirSync(path.join(root, folder))
    .filter((name) => name.endsWith(".ts"))
    .map((name) => `${folder}/${name}`);
}

describe("panel architecture", () => {
  it("imports vscode only in the thin adapter", () => {
    const files = sources("src/panel");
    assert.ok(files.length > 10);
    const importers = files.filter((file) => IMPORT_OF_VSCODE.test(readFileSync(path.join(root, file), "utf8")));
    assert.deepEqual(importers.sort(), [...PANEL_ADAPTER].sort());
  });

  it("keeps panel files under about 300 lines unless the top says why", () => {
    const files = [...sources("src/panel"), ...sources("media/panel"), "media/main.ts"];
    const long = files.filter((file) => {
      const lines = readFileSync(path.join(root, file), "utf8").split("\n");
      return lines.length > 320 && !/longer than|over 300 lines/i.test(lines.slice(0, 40).join("\n"));
    });
    assert.deepEqual(long, []);
  });

  it("ends every switch over protocol messages with a never check", () => {
    for (const file of ["src/panel/panelMessages.ts", "media/main.ts", "media/panel/panelStore.ts"]) {
      const source = readFileSync(path.join(root, file), "utf8");
      const switches = source.match(/switch \((?:message|change)\.(?:type|kind)\) \{/g) ?? [];
      const checked = source.match(/switch \((?:message|change)\.(?:type|kind)\) \{(?:(?!switch \()[\s\S])*?default:\s*(?:return )?unreachable\(/g) ?? [];
      assert.ok(switches.length > 0, `${file} has a switch over messages`);
      assert.equal(checked.length, switches.length, `${file}: every switch ends in unreachable(...)`);
    }
  });
});
