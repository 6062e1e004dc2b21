import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

// The module boundaries of ARCHITECTURE.md, checked mechanically so they cannot rot.

const root = path.resolve(__dirname, "../..");
const VSCODE_FREE = ["src/relay", "src/chat", "src/cli", "src/tools"];
const IMPORT_OF_VSCODE = /(?:from\s+["']vscode["']|require\(\s*["']vscode["']\s*\)|import\(\s*["']vscode["']\s*\))/;

function typescriptFiles(directory: string, recurse: (name: string) => boolean): string[] {
  const absolute = path.join(root, directory);
  let names: string[];
  try {
    names = readdirSync(absolute);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const relative = path.join(directory, name);
    if (statSync(path.join(root, relative)).isDirectory()) return recurse(name) ? typescriptFiles(relative, recurse) : [];
    return name.endsWith(".ts") ? [relative] : [];
  });
}

describe("architecture", () => {
  it("keeps src/relay, src/chat, src/cli and the core of src/tools free of vscode imports", () => {
    // src/tools/builtin/ holds the tools that touch the editor and may import vscode.
    const files = VSCODE_FREE.flatMap((directory) => typescriptFiles(directory, (name) => name !== "builtin"));
    assert.ok(files.length > 10, "the scan found the sources");
    const offenders = files.filter((file) => IMPORT_OF_VSCODE.test(readFileSync(path.join(root, file), "utf8")));
    assert.deepEqual(offenders, []);
  });

  it("lets src/relay import nothing else of the project", () => {
    const offenders = typescriptFiles("src/relay", () => true).filter((file) => /from\s+["']\.\.\//.test(readFileSync(path.join(root, file), "utf8")));
    assert.deepEqual(offenders, []);
  });

  it("would catch a vscode import (the check can fail)", () => {
    assert.equal(IMPORT_OF_VSCODE.test('import * as vscode from "vscode";'), true);
    assert.equal(IMPORT_OF_VSCODE.test("const vscode = require('vscode');"), true);
    assert.equal(IMPORT_OF_VSCODE.test('import type { Uri } from "vscode";'), true);
  });
});
