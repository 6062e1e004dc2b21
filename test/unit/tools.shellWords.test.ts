import assert from "node:assert/strict";
import { commandForms } from "../../src/tools/commandForms";
import { splitCommandLine } from "../../src/tools/shellWords";

describe("shell words of a command line (for the approval rules)", () => {
  const table: Array<[string, string[][] | null]> = [
    ["npm test", [["npm", "test"]]],
    ["  npm   test  ", [["npm", "test"]]],
    ["npm 'pub lish'", [["npm", "pub lish"]]],
    ['git commit -m "a \\"b\\" \\\\ c"', [["git", "commit", "-m", 'a "b" \\ c']]],
    ["git pub''lish \"\"", [["git", "publish", ""]]],
    ["\\p\\u\\s\\h", [["push"]]],
    ["a && b; c | d\ne", [["a"], ["b"], ["c"], ["d"], ["e"]]],
    ["a 2>&1 > out.txt b", [["a", "b"]]],
    ["a # comment; b", [["a"]]],
    ["a$b", null],
    ['a "$b"', null],
    ["a `b`", null],
    ["a $(b)", null],
    ["(a)", null],
    ["a *", null],
    ["a {b,c}", null],
    ["a 'b", null],
    ['a "b', null],
    ["a \\", null],
    ["cat <<EOF", null],
    ["a >", null],
  ];
  for (const [line, words] of table) {
    it(`reads ${JSON.stringify(line)}`, () => assert.deepEqual(splitCommandLine(line), words));
  }

  it("reads a command with its wrappers and global options removed", () => {
    assert.deepEqual(commandForms("sudo -u root env X=1 git -C . --no-pager push --force"), ["sudo -u root env X=1 git -C . --no-pager push --force", "git -C . --no-pager push --force", "git push --force"]);
    assert.ok(commandForms("npm --prefix x publish")?.includes("npm publish"));
    assert.ok(commandForms("bash -c 'git  push'")?.includes("git push"));
    assert.equal(commandForms("bash -c 'git $x'"), null);
  });
});
