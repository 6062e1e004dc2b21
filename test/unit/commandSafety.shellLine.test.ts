import assert from "node:assert/strict";
import { analyzeCommandWords, analyzeLine } from "../../src/tools/commandSafety/commandAnalysis";
import { allNodes } from "../../src/tools/commandSafety/commandNode";
import type { ShellDialect } from "../../src/tools/commandSafety/shellLine";
import { isUnreadable, readShellLine } from "../../src/tools/commandSafety/shellLine";
import { programName, reachesOutsideWorkspace } from "../../src/tools/commandSafety/words";

/** The words of each simple command, or the construct that makes the line unreadable. */
function words(line: string, dialect: ShellDialect = "posix"): string[][] | string {
  const reading = readShellLine(line, dialect);
  return isUnreadable(reading) ? reading.unreadable : reading.commands.map((command) => [...command.words]);
}

describe("command safety: reading a command line into words", () => {
  const posix: Array<[string, string[][] | string]> = [
    ["npm test", [["npm", "test"]]],
    ["  npm   test  ", [["npm", "test"]]],
    ["npm 'pub lish'", [["npm", "pub lish"]]],
    ['git commit -m "a \\"b\\" \\\\ c"', [["git", "commit", "-m", 'a "b" \\ c']]],
    ["git pub''lish \"\"", [["git", "publish", ""]]],
    ["\\p\\u\\s\\h", [["push"]]],
    ["a && b; c | d\ne", [["a"], ["b"], ["c"], ["d"], ["e"]]],
    ["a 2>&1 > out.txt b", [["a", "b"]]],
    ["a # comment; b", [["a"]]],
    ["git pu\\\nsh", [["git", "push"]]],
    ["find . -exec rm {} \\;", [["find", ".", "-exec", "rm", "{}", ";"]]],
    ["echo {} x{y}", [["echo", "{}", "x{y}"]]],
    ["cd ~/x", [["cd", "~/x"]]],
    ["a$b", "$"],
    ['a "$b"', "$"],
    ["a `b`", "`"],
    ["a $(b)", "$"],
    ["(a)", "("],
    ["a *", "*"],
    ["a pu?h", "?"],
    ["a {b,c}", "{b,c}"],
    ["a {1..3}", "{1..3}"],
    ["{ a; }", "{"],
    ["a 'b", "'"],
    ['a "b', '"'],
    ["a \\", "\\"],
    ["cat <<EOF", "<<"],
    ["a >", ">"],
    ["ls ~root", "~"],
    ["a\rb", "U+000D"],
  ];
  for (const [line, expected] of posix) it(`reads ${JSON.stringify(line)}`, () => assert.deepEqual(words(line), expected));

  it("keeps redirections and the operators between commands", () => {
    const reading = readShellLine("npm test > out.txt 2>&1 && git diff >> ../log; x & y");
    assert.ok(!isUnreadable(reading));
    assert.deepEqual(reading.operators, ["&&", ";", "&"]);
    assert.deepEqual(reading.commands[0]?.redirections, [
      { operator: ">", target: "out.txt" },
      { operator: ">&", target: "1" },
    ]);
    assert.deepEqual(reading.commands[1]?.redirections, [{ operator: ">>", target: "../log" }]);
  });

  // cmd.exe, the shell run_command uses on Windows: no single quotes or backslash escapes, ^ escapes, %VAR% expands.
  const cmd: Array<[string, string[][] | string]> = [
    ["git push", [["git", "push"]]],
    ["g^it pu^sh", [["git", "push"]]],
    ["git 'push'", [["git", "'push'"]]],
    ['git "push" && x', [["git", "push"], ["x"]]],
    ["echo 'a & git push'", [["echo", "'a"], ["git", "push'"]]],
    ["type ..\\..\\secret", [["type", "..\\..\\secret"]]],
    ["git %CMD%", "%"],
    ["(git push)", "("],
    ["echo ^", "^"],
  ];
  for (const [line, expected] of cmd) it(`reads ${JSON.stringify(line)} as cmd.exe does`, () => assert.deepEqual(words(line, "cmd"), expected));
});

describe("command safety: words", () => {
  it("names a program the way any platform may run it", () => {
    for (const word of ["git", "/usr/bin/git", "GIT", "git.exe", "Git.EXE", "C:\\Program Files\\Git\\bin\\git.exe", "g^it", "./git"]) assert.equal(programName(word), "git", word);
    assert.equal(programName("npm.cmd"), "npm");
  });

  it("reads a path as reaching outside the workspace when it is absolute, in a home folder or climbs", () => {
    for (const path of ["/etc/passwd", "../x", "a/../../x", "~", "~/x", "C:\\x", "\\\\server\\share", "..\\x", "file:///etc"]) assert.equal(reachesOutsideWorkspace(path), true, path);
    for (const path of ["src/a.ts", ".", "a..b", "HEAD~1..HEAD", "-", "https://example.com/x"]) assert.equal(reachesOutsideWorkspace(path), false, path);
  });
});

describe("command safety: what a command runs", () => {
  const programs = (line: string) => [...analyzeLine(line).commands.flatMap((command) => [...allNodes(command.node)])].map((node) => [node.program, node.subcommand ?? ""].join(" ").trim());

  it("looks through wrappers, keywords, shells and the commands other programs start", () => {
    assert.deepEqual(programs("timeout -s KILL 20 git push"), ["timeout", "git push"]);
    assert.deepEqual(programs("if ! git push; then :; fi"), ["if", "!", "git push", "then", ":", "fi"]);
    assert.deepEqual(programs("sh -ec 'git push'"), ["sh", "git push"]);
    assert.deepEqual(programs("bash -c -- 'rm -rf x'"), ["bash", "rm"]);
    assert.deepEqual(programs("env -S 'git push' origin"), ["env", "git push"]);
    assert.deepEqual(programs("git -c alias.p=push p"), ["git p", "git push"]);
    assert.deepEqual(programs("git -c 'alias.z=!rm -rf x' z"), ["git z", "rm"]);
    assert.deepEqual(programs("git send-pack ../r main"), ["git send-pack", "git push"]);
    assert.deepEqual(programs("npm x -- npm publish"), ["npm exec", "npm publish"]);
    assert.deepEqual(programs("npm exec -c 'npm publish'"), ["npm exec", "npm publish"]);
    assert.deepEqual(programs("npm publ"), ["npm publish"]);
    assert.deepEqual(programs("find . -exec git push ';'"), ["find", "git push"]);
    assert.deepEqual(programs("find victim -delete"), ["find", "rm"]);
    assert.deepEqual(programs("setsid git push"), ["setsid", "git push", "push"]);
  });

  it("reads an option's value where the program takes one, so the subcommand is found after it", () => {
    const node = analyzeCommandWords(["git", "-C", "sub", "--git-dir", ".git", "-c", "x=y", "--no-pager", "log", "-n", "5"]);
    assert.equal(node.subcommand, "log");
    assert.equal(node.subcommandIndex, 8);
    assert.deepEqual(
      node.concerns.map((concern) => [concern.kind, concern.subject]),
      [["runsCode", "-c x=y"]],
    );
  });

  it("stops reading a pathological line quickly, and then it needs a card", () => {
    for (const line of [Array.from({ length: 400 }, () => "foo env").join(" "), Array.from({ length: 2_000 }, () => "a").join(" ")]) {
      const started = Date.now();
      const analysis = analyzeLine(line);
      const nodes = [...allNodes(analysis.commands[0]!.node)];
      assert.ok(Date.now() - started < 2_000, `bounded in time: ${Date.now() - started} ms`);
      assert.ok(nodes.length <= 2_000, `bounded in commands read: ${nodes.length}`);
      assert.ok(nodes.some((node) => node.concerns.some((concern) => concern.kind === "unreadable")));
    }
  });
});
