import assert from "node:assert/strict";
import { isIgnoredByGitignore, parseGitignore } from "../../src/tools/gitignoreRules";
import { createPathMatcher } from "../../src/tools/globPattern";

describe("tools: glob patterns", () => {
  const cases: [pattern: string, path: string, matches: boolean][] = [
    ["**/*.ts", "a.ts", true],
    ["**/*.ts", "src/deep/a.ts", true],
    ["**/*.ts", "src/a.tsx", false],
    ["src/*.ts", "src/a.ts", true],
    ["src/*.ts", "src/deep/a.ts", false],
    ["src/**", "src/deep/a.ts", true],
    ["src/**/a.ts", "src/a.ts", true],
    ["src/**/a.ts", "src/x/y/a.ts", true],
    ["src/**/a.ts", "srcx/a.ts", false],
    ["?.md", "a.md", true],
    ["?.md", "ab.md", false],
    ["[abc].txt", "b.txt", true],
    ["[!abc].txt", "b.txt", false],
    ["[!abc].txt", "d.txt", true],
    ["*.{js,ts}", "x.ts", true],
    ["*.{js,ts}", "x.css", false],
    ["a+b(c).txt", "a+b(c).txt", true],
    ["a.txt", "aXtxt", false],
  ];
  for (const [pattern, candidate, expected] of cases) {
    it(`${pattern} ${expected ? "matches" : "does not match"} ${candidate}`, () => {
      assert.equal(createPathMatcher(pattern)(candidate), expected);
    });
  }

  it("matches a pattern without / against names at any depth", () => {
    const matches = createPathMatcher("*.log");
    assert.equal(matches("a.log"), true);
    assert.equal(matches("x/y/a.log"), true);
    assert.equal(matches("x/y/a.logs"), false);
    assert.equal(createPathMatcher("./src/*.ts")("src/a.ts"), true);
  });

  it("matches dotfiles, folds case only when asked, and reads a backslash as a separator", () => {
    assert.equal(createPathMatcher("**/*")(".gitignore"), true);
    assert.equal(createPathMatcher("*.TS")("src/a.ts"), false);
    assert.equal(createPathMatcher("*.TS", { caseSensitive: false })("src/a.ts"), true);
    assert.equal(createPathMatcher("src\\*.ts")("src/a.ts"), false, "an escaped * stays literal");
    assert.equal(createPathMatcher("src\\deep/*.ts")("src/deep/a.ts"), true);
  });
});

describe("tools: gitignore rules", () => {
  const root = parseGitignore("# comment\n\nbuild/\n*.tmp\n/only-root.txt\ndocs/private\n!important.tmp\n", "");

  const cases: [path: string, isDirectory: boolean, ignored: boolean][] = [
    ["build", true, true],
    ["src/build", true, true],
    ["build", false, false],
    ["a.tmp", false, true],
    ["deep/a.tmp", false, true],
    ["important.tmp", false, false],
    ["only-root.txt", false, true],
    ["sub/only-root.txt", false, false],
    ["docs/private", true, true],
    ["sub/docs/private", true, false],
    ["src/main.ts", false, false],
  ];
  for (const [candidate, isDirectory, expected] of cases) {
    it(`${candidate}${isDirectory ? "/" : ""} is ${expected ? "" : "not "}ignored`, () => {
      assert.equal(isIgnoredByGitignore([root], candidate, isDirectory), expected);
    });
  }

  it("applies a nested .gitignore only below its folder", () => {
    const nested = parseGitignore("*.gen.ts\n", "packages/a");
    assert.equal(isIgnoredByGitignore([root, nested], "packages/a/x.gen.ts", false), true);
    assert.equal(isIgnoredByGitignore([root, nested], "packages/b/x.gen.ts", false), false);
  });

  it("lets a deeper .gitignore re-include what a shallower one ignores, and the reverse", () => {
    const nested = parseGitignore("!keep.tmp\nlocal.txt\n", "sub");
    assert.equal(isIgnoredByGitignore([root, nested], "sub/keep.tmp", false), false);
    assert.equal(isIgnoredByGitignore([root, nested], "sub/other.tmp", false), true);
    assert.equal(isIgnoredByGitignore([root, nested], "sub/local.txt", false), true);
    assert.equal(isIgnoredByGitignore([root, nested], "local.txt", false), false);
  });

  it("matches case exactly, as git does by default on Linux", () => {
    assert.equal(isIgnoredByGitignore([root], "A.TMP", false), false);
  });
});
