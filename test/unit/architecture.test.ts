import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

// The module boundaries of ARCHITECTURE.md, checked mechanically so they cannot rot.

const root = path.resolve(__dirname, "../..");
const VSCODE_FREE = ["src/relay", "src/chat", "src/cli", "src/tools", "src/instructions"];
const IMPORT_OF_VSCODE = /(?:from\s+["']vscode["']|require\(\s*["']vscode["']\s*\)|import\(\s*["']vscode["']\s*\))/;

/** Files below `directory` (relative to the root) whose name passes `keep`, in folders that pass `descend`. */
function filesUnder(directory: string, keep: (name: string) => boolean, descend: (name: string) => boolean): string[] {
  const absolute = path.join(root, directory);
  let names: string[];
  try {
    names = readdirSync(absolute);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const relative = path.join(directory, name);
    if (statSync(path.join(root, relative)).isDirectory()) return descend(name) ? filesUnder(relative, keep, descend) : [];
    return keep(name) ? [relative] : [];
  });
}

function typescriptFiles(directory: string, descend: (name: string) => boolean): string[] {
  return filesUnder(directory, (name) => name.endsWith(".ts"), descend);
}

/** Everything that runs: the product, its tests, benchmarks, scripts and CI. */
const RUNNABLE_FOLDERS = ["src", "test", "bench", "scripts", "media", ".ci"];
const RUNNABLE_FILE = /\.(?:ts|mts|cts|js|mjs|cjs|sh)$|^run$/;
const MENTION_OF_SHARED = /\.\.\/(?:\.\.\/)*shared\b|\bshared\/(?:reference|spec|notes|design|hooks)\b/;
const RELATIVE_IMPORT = /(?:\bfrom\s+|\brequire\(\s*|\bimport\(\s*)["'](\.{1,2}\/[^"']*)["']/g;
const PATH_FROM_OWN_FOLDER =
  /\b(?:resolve|join)\(\s*(?:__dirname|path\.dirname\(fileURLToPath\(import\.meta\.url\)\))\s*((?:,\s*(?:"[^"]*"|'[^']*')\s*)+)\)/g;

function runnableFiles(directory: string): string[] {
  return filesUnder(directory, (name) => RUNNABLE_FILE.test(name), (name) => name !== "node_modules" && name !== "dist");
}

/** Places in a file that reach outside the repository: mentions of ../shared, imports or paths that resolve above the root. */
function reachesOutside(file: string, source: string): string[] {
  const folder = path.dirname(path.join(root, file));
  const outside = (target: string) => path.relative(root, target).startsWith("..");
  const found: string[] = [];
  if (MENTION_OF_SHARED.test(source)) found.push(`${file}: mentions ../shared`);
  for (const match of source.matchAll(RELATIVE_IMPORT)) if (outside(path.resolve(folder, match[1]))) found.push(`${file}: imports ${match[1]}`);
  for (const match of source.matchAll(PATH_FROM_OWN_FOLDER)) {
    const segments = [...match[1].matchAll(/"([^"]*)"|'([^']*)'/g)].map((segment) => segment[1] ?? segment[2]);
    if (outside(path.resolve(folder, ...segments))) found.push(`${file}: resolves ${segments.join("/")}`);
  }
  return found;
}

/**
 * The import circles among src/ files: every group of files that reach each other through relative imports
 * (`import`, `import type`, `export … from`, `require`, `import()`), a type-only import counted like any other,
 * as a circle of types still ties the files' changes together. Each group is listed sorted, one per circle.
 */
function importCircles(imports: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's strongly connected components: a group of two or more files, or a file importing itself.
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    lowest.set(file, order.get(file)!);
    stack.push(file);
    for (const target of imports.get(file) ?? []) {
      if (!order.has(target)) {
        visit(target);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(target)!));
      } else if (stack.includes(target)) lowest.set(file, Math.min(lowest.get(file)!, order.get(target)!));
    }
    if (lowest.get(file) !== order.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || (imports.get(file) ?? []).includes(file)) circles.push(group.sort());
  };
  for (const file of imports.keys()) if (!order.has(file)) visit(file);
  return circles;
}

/** Each src/ file and the src/ files its relative imports name (`./x`, `./x.js`, `./x/index`). */
function sourceImports(): Map<string, string[]> {
  const files = typescriptFiles("src", () => true).map((file) => file.split(path.sep).join("/"));
  const known = new Set(files);
  const imports = new Map<string, string[]>();
  for (const file of files) {
    const targets = [...readFileSync(path.join(root, file), "utf8").matchAll(RELATIVE_IMPORT)].map((match) => {
      const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1])).replace(/\.js$/, "");
      return [`${base}.ts`, `${base}/index.ts`].find((candidate) => known.has(candidate));
    });
    imports.set(file, [...new Set(targets.filter((target): target is string => target !== undefined))]);
  }
  return imports;
}

describe("architecture", () => {
  it("reads nothing outside the repository: a user's clone has no ../shared beside it", () => {
    // This file holds examples of what the check catches, so it is left out of its own scan.
    const files = [...RUNNABLE_FOLDERS.flatMap(runnableFiles), "package.json"].filter((file) => file !== path.relative(root, __filename));
    assert.ok(files.length > 100, "the scan found the sources");
    const offenders = files.flatMap((file) => reachesOutside(file, readFileSync(path.join(root, file), "utf8")));
    assert.deepEqual(offenders, []);
  });

  it("would catch a path out of the repository (the check can fail)", () => {
    const sharedFolder = ["..", "..", "..", "shared", "reference"].join("/");
    assert.equal(reachesOutside("test/unit/x.ts", `const d = path.resolve(__dirname, "${sharedFolder}");`).length > 0, true);
    assert.equal(reachesOutside("test/unit/x.ts", 'const d = path.join(__dirname, "..", "..", "..", "data");').length, 1);
    assert.equal(reachesOutside("scripts/x.mjs", 'import { x } from "../../outside/x.mjs";').length, 1);
    assert.equal(reachesOutside("test/unit/x.ts", 'const d = path.join(__dirname, "..", "fixtures");').length, 0);
    assert.equal(reachesOutside("test/unit/x.ts", 'import { y } from "../../src/relay/client";').length, 0);
  });

  it("keeps src/relay, src/chat, src/cli, src/instructions and the core of src/tools free of vscode imports", () => {
    // src/tools/builtin/ holds the tools that touch the editor and may import vscode.
    const files = VSCODE_FREE.flatMap((directory) => typescriptFiles(directory, (name) => name !== "builtin"));
    assert.ok(files.length > 10, "the scan found the sources");
    const offenders = files.filter((file) => IMPORT_OF_VSCODE.test(readFileSync(path.join(root, file), "utf8")));
    assert.deepEqual(offenders, []);
  });

  it("lets src/relay import nothing else of the project", () => {
    // Its own folders (src/relay/chatCompletions/) may import each other; nothing outside src/relay.
    const relayRoot = path.join(root, "src", "relay");
    const outsideRelay = (file: string, specifier: string) => specifier.startsWith(".") && path.relative(relayRoot, path.resolve(root, path.dirname(file), specifier)).startsWith("..");
    const offenders = typescriptFiles("src/relay", () => true).filter((file) => [...readFileSync(path.join(root, file), "utf8").matchAll(/from\s+["']([^"']+)["']/g)].some((match) => outsideRelay(file, match[1])));
    assert.deepEqual(offenders, []);
  });

  it("would catch a vscode import (the check can fail)", () => {
    assert.equal(IMPORT_OF_VSCODE.test('import * as vscode from "vscode";'), true);
    assert.equal(IMPORT_OF_VSCODE.test("const vscode = require('vscode');"), true);
    assert.equal(IMPORT_OF_VSCODE.test('import type { Uri } from "vscode";'), true);
  });

  it("has no import circles among src/ files, type-only imports included: a type that crosses goes into a types module both sides import", () => {
    const imports = sourceImports();
    assert.ok(imports.size > 200, "the scan found the sources");
    assert.ok([...imports.values()].some((targets) => targets.length > 0), "the scan found the imports");
    assert.deepEqual(importCircles(imports).map((group) => `in a circle: ${group.join(", ")}`), []);
  });

  it("would catch an import circle (the check can fail)", () => {
    const circle = new Map([["a.ts", ["b.ts"]], ["b.ts", ["c.ts"]], ["c.ts", ["a.ts"]], ["d.ts", ["a.ts"]]]);
    assert.deepEqual(importCircles(circle), [["a.ts", "b.ts", "c.ts"]]);
    assert.deepEqual(importCircles(new Map([["a.ts", ["a.ts"]]])), [["a.ts"]]);
    assert.deepEqual(importCircles(new Map([["a.ts", ["b.ts"]], ["b.ts", []], ["c.ts", ["a.ts", "b.ts"]]])), []);
  });

  it("keeps every source file under 400 lines, or says at its top why it is longer", () => {
    const sources = [...typescriptFiles("src", () => true), ...typescriptFiles("media", (name) => name !== "dist")];
    assert.ok(sources.length > 50, "the scan found the sources");
    const offenders = sources.filter((file) => !lengthIsExplained(readFileSync(path.join(root, file), "utf8")));
    assert.deepEqual(offenders, []);
  });

  it("would catch a long file without a reason (the check can fail)", () => {
    const long = "const a = 1;\n".repeat(MAX_LINES_WITHOUT_REASON + 1);
    assert.equal(lengthIsExplained(long), false);
    assert.equal(lengthIsExplained(`// This file is longer than 400 lines because it must be.\n${long}`), true);
    assert.equal(lengthIsExplained("const a = 1;\n".repeat(10)), true);
  });

  it("keeps the composition root a list of registrations and the panel's controller a thin dispatcher", () => {
    const activate = readFileSync(path.join(root, "src/extension.ts"), "utf8");
    assert.ok(activate.split("\n").length <= 300, "src/extension.ts stays short: a feature's code goes into its own module");
    const controller = readFileSync(path.join(root, "src/panel/chatController.ts"), "utf8");
    assert.ok(controller.split("\n").length <= 400, "the controller stays under 400 lines");
    const members = controller.match(/^  (?:(?:private|readonly|async|get|static)\s+)*[a-zA-Z]+[(:<=; ]/gm) ?? [];
    assert.ok(members.length < 55, `ChatController has ${members.length} members; it had 55 when it was split; give a new responsibility its own module`);
  });
});

const MAX_LINES_WITHOUT_REASON = 400;

/** A file is short enough, or its first lines say why it is longer ("This file is longer than 400 lines because …"). */
function lengthIsExplained(text: string): boolean {
  if (text.split("\n").length <= MAX_LINES_WITHOUT_REASON) return true;
  return /longer than \d+ lines because/.test(text.split("\n").slice(0, 40).join("\n"));
}
