import assert from "node:assert/strict";
import { parseCodeBlockInfo } from "../../media/render/codeBlockMarkup";

describe("Code block info strings (language and file hint)", () => {
  const cases: Array<[string, string, string]> = [
    ["", "", ""],
    ["ts", "ts", ""],
    ["typescript src/app.ts", "typescript", "src/app.ts"],
    ["python:tools/run.py", "python", "tools/run.py"],
    ['ts title="src/a b.ts" {1,3}', "ts", "src/a b.ts"],
    ["rust file=src/main.rs", "rust", "src/main.rs"],
    ["js path='lib/x.js'", "js", "lib/x.js"],
    ["json package.json", "json", "package.json"],
    ["bash", "bash", ""],
    ["sh {linenos=true}", "sh", ""],
    ["ts some words here", "ts", ""],
    ["ts -rf /etc/passwd", "ts", ""],
    ["c++ a.cpp", "c++", "a.cpp"],
    ["ts C:\\work\\a.ts", "ts", "C:\\work\\a.ts"],
    ['ts title="<img src=x>.ts"', "ts", ""],
  ];
  for (const [info, language, file] of cases) {
    it(`reads ${JSON.stringify(info)} as ${JSON.stringify(language)} and ${JSON.stringify(file)}`, () => {
      assert.deepEqual(parseCodeBlockInfo(info), { language, file });
    });
  }
});
