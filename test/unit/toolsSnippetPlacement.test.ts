import assert from "node:assert/strict";
import type { DeclarationSpan } from "../../src/tools/snippetPlacement";
import { placeSnippet } from "../../src/tools/snippetPlacement";
import { applyHunks, computeHunks, hunkStartLine } from "../../src/tools/textHunks";

const threeFunctions = ["import { x } from './x';", "", "export function first() {", "  return 1;", "}", "", "function middle(a: number) {", "  if (a) {", "    return a;", "  }", "  return 0;", "}", "", "export function last() {", "  return 3;", "}", ""].join("\n");

const classFile = ["export class Counter {", "  private count = 0;", "", "  increment() {", "    this.count++;", "  }", "", "  reset() {", "    this.count = 0;", "  }", "}", ""].join("\n");

const pythonFile = ["import os", "", "def load(path):", "    with open(path) as f:", "        return f.read()", "", "def save(path, text):", "    pass", ""].join("\n");

interface Row {
  readonly title: string;
  readonly file: string;
  readonly snippet: string;
  readonly symbols?: DeclarationSpan[];
  /** Each place's kind and the resulting file, best first. */
  readonly places: { kind: string; text?: string }[];
}

const rows: Row[] = [
  {
    title: "a function replaced in the middle of a file",
    file: threeFunctions,
    snippet: "function middle(a: number) {\n  return a * 2;\n}\n",
    places: [{ kind: "declaration", text: threeFunctions.replace("function middle(a: number) {\n  if (a) {\n    return a;\n  }\n  return 0;\n}", "function middle(a: number) {\n  return a * 2;\n}") }],
  },
  {
    title: "a method in a class, written at column 0, indentation kept",
    file: classFile,
    snippet: "reset() {\n  this.count = 10;\n}",
    places: [{ kind: "declaration", text: classFile.replace("this.count = 0;\n  }", "this.count = 10;\n  }") }],
  },
  {
    title: "the editor's document symbols win over the text (a name the text search cannot see)",
    file: "const handlers = {\n  onOpen() { return 1; },\n};\n",
    snippet: "onOpen() {\n  return 2;\n}",
    symbols: [
      { name: "handlers", startLine: 0, endLine: 2 },
      { name: "onOpen", startLine: 1, endLine: 1 },
    ],
    places: [{ kind: "declaration", text: "const handlers = {\n  onOpen() {\n    return 2;\n  }\n};\n" }],
  },
  {
    title: "a Python function, ended by indentation",
    file: pythonFile,
    snippet: "def load(path):\n    return open(path).read()\n",
    places: [{ kind: "declaration", text: pythonFile.replace("    with open(path) as f:\n        return f.read()\n", "    return open(path).read()\n") }],
  },
  {
    title: "a new function appended after a blank line",
    file: threeFunctions,
    snippet: "export function added() {\n  return 4;\n}",
    places: [{ kind: "append", text: `${threeFunctions}\nexport function added() {\n  return 4;\n}\n` }],
  },
  {
    title: "the same method name in two classes is ambiguous",
    file: "class A {\n  run() {\n    a();\n  }\n}\nclass B {\n  run() {\n    b();\n  }\n}\n",
    snippet: "run() {\n  c();\n}",
    places: [
      { kind: "declaration", text: "class A {\n  run() {\n    c();\n  }\n}\nclass B {\n  run() {\n    b();\n  }\n}\n" },
      { kind: "declaration", text: "class A {\n  run() {\n    a();\n  }\n}\nclass B {\n  run() {\n    c();\n  }\n}\n" },
    ],
  },
  {
    title: "lines without a declaration, placed by their first and last lines",
    file: "setup();\nconst total = items.length;\nlog(total);\nreport(total);\nteardown();\n",
    snippet: "const total = items.length;\nlog(total * 2);\nreport(total);\n",
    places: [{ kind: "lines", text: "setup();\nconst total = items.length;\nlog(total * 2);\nreport(total);\nteardown();\n" }],
  },
  {
    title: "lines that match nowhere and declare nothing: append or replace the file, the person picks",
    file: threeFunctions,
    snippet: "console.log('hello');\n",
    places: [{ kind: "append" }, { kind: "whole-file" }],
  },
  {
    title: "a whole-file snippet replaces the file",
    file: threeFunctions,
    snippet: threeFunctions.replace("return 3;", "return 33;"),
    places: [{ kind: "whole-file", text: threeFunctions.replace("return 3;", "return 33;") }],
  },
  {
    title: "a CRLF file stays CRLF",
    file: threeFunctions.replace(/\n/g, "\r\n"),
    snippet: "export function last() {\n  return 30;\n}\n",
    places: [{ kind: "declaration", text: threeFunctions.replace("return 3;", "return 30;").replace(/\n/g, "\r\n") }],
  },
  {
    title: "a doc comment in the snippet replaces the file's comment above the declaration",
    file: "/** Old. */\nfunction a() {\n  return 1;\n}\n\nfunction b() {}\n",
    snippet: "/** New. */\nfunction a() {\n  return 2;\n}\n",
    places: [{ kind: "declaration", text: "/** New. */\nfunction a() {\n  return 2;\n}\n\nfunction b() {}\n" }],
  },
  {
    title: "an empty file takes the snippet",
    file: "",
    snippet: "hello\n",
    places: [{ kind: "whole-file", text: "hello\n" }],
  },
];

describe("tools: placing a code block's snippet in a file", () => {
  for (const row of rows) {
    it(row.title, () => {
      const places = placeSnippet(row.file, row.snippet, row.symbols ?? null);
      assert.deepEqual(
        places.map((place) => ({ kind: place.kind, ...(row.places.some((expected) => expected.text !== undefined) ? { text: place.text } : {}) })),
        row.places,
      );
    });
  }
});

describe("tools: hunks between a file and a proposed version", () => {
  const original = "a\nb\nc\nd\ne\n";
  const proposed = "a\nB\nc\nd\nnew\ne\n";

  it("finds one hunk per changed run of lines, with the original lines it replaces", () => {
    assert.deepEqual(computeHunks(original, proposed), [
      { originalStart: 1, originalLines: ["b\n"], proposedLines: ["B\n"] },
      { originalStart: 4, originalLines: [], proposedLines: ["new\n"] },
    ]);
  });

  it("puts in only the hunks chosen, and knows where each starts in the result", () => {
    const hunks = computeHunks(original, proposed);
    assert.equal(applyHunks(original, hunks, () => true), proposed);
    assert.equal(applyHunks(original, hunks, () => false), original);
    assert.equal(applyHunks(original, hunks, (index) => index === 1), "a\nb\nc\nd\nnew\ne\n");
    const removing = computeHunks("x\ny\nz\nw\n", "x\nw\nadded\n");
    const withFirst = (index: number) => index === 0;
    assert.equal(hunkStartLine(removing, 1, withFirst), 2);
    assert.equal(hunkStartLine(removing, 1, () => false), 4);
  });

  it("keeps CRLF line breaks and a last line without a break", () => {
    const hunks = computeHunks("one\r\ntwo", "one\r\nTWO");
    assert.deepEqual(hunks, [{ originalStart: 1, originalLines: ["two"], proposedLines: ["TWO"] }]);
    assert.equal(applyHunks("one\r\ntwo", hunks, () => true), "one\r\nTWO");
  });
});
