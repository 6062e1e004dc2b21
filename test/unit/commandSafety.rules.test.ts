import assert from "node:assert/strict";
import type { ConcernKind } from "../../src/tools/commandSafety/commandNode";
import { decideByRules, parseAutoApproveRules } from "../../src/tools/autoApproveRules";

// Command safety's own table of cases, beside the review's (commandSafety.table.test.ts): what rules that allow whole
// programs still refuse, what they let run, and why the card asks. Every program named here is allowed by name.
const broad = parseAutoApproveRules({
  run_command: {
    allow: ["git*", "npm*", "find*", "grep*", "rg*", "sed*", "sort*", "cat*", "ls*", "env*", "bash*", "sh*", "timeout*", "xargs*", "node*", "python3*", "perl*", "nice*", "tee*", "cp*", "date*", "head*", { pattern: "echo*", shellSyntax: true }, { pattern: "make test", match: "prefix" }],
    deny: ["git push", "rm -rf"],
  },
});

const decide = (line: string, dialect: "posix" | "cmd" = "posix") => decideByRules({ toolName: "run_command", risk: "execute", command: line }, broad, false, dialect);

/** [line, null: runs without a card | the concern the card shows] */
const cases: Array<[string, ConcernKind | "denied" | null]> = [
  // Read-only work runs.
  ["git log --oneline -5", null],
  ["git -C src log --stat", null],
  ["git show HEAD~1:src/a.ts", null],
  ["git diff --no-index a.txt b.txt", null],
  ["git status --porcelain=v2 -z", null],
  ["git config --get user.name", null],
  ["git stash list", null],
  ["git grep -n needle -- src", null],
  ["git status > /dev/null 2>&1", null],
  ["find . -name '*.ts' -type f", null],
  ["grep -rn 'a;b' src", null],
  ["rg -n --hidden needle src", null],
  ["sed -n 1,20p src/a.ts", null],
  ["ls -la src", null],
  ["npm run build --silent", null],
  ["npm t", null],
  ["npm pkg get name", null],
  ["env LANG=C git log", null],
  ["nice -n 5 git status", null],
  ["timeout 60s npm test", null],
  ["bash -c 'git status'", null],
  ["make test", null],
  ["echo a && echo b", null],
  // Options that run or load code, write, or leave the workspace.
  ["git log --output=x", "writesFile"],
  ["git show --ext-diff", "runsCode"],
  ["git log -p --textconv", "runsCode"],
  ["git grep -Ovim needle", "runsCode"],
  ["git --exec-path=. status", "runsCode"],
  ["git -p log", "runsCode"],
  ["git --git-dir=../other/.git log", "outsideWorkspace"],
  ["git blame --contents /etc/passwd x", "outsideWorkspace"],
  ["git config core.pager 'sh -c x'", "runsCode"],
  ["git rebase -x 'make' HEAD~3", "runsCode"],
  ["git fetch --upload-pack=./x origin", "runsCode"],
  ["git clone --template=./t https://example.com/r.git", "runsCode"],
  ["git submodule foreach 'git status'", "runsCode"],
  ["git remote add x ../other", "unknownOption"],
  ["git st", "unknownSubcommand"],
  ["git gc --aggressive", "unknownProgram"],
  ["npm test --userconfig=./npmrc", "loadsCode"],
  ["npm test --prefix=/tmp/x", "outsideWorkspace"],
  ["npm install -g x", "outsideWorkspace"],
  ["npm pkg set scripts.test='rm -rf ~'", "runsCode"],
  ["npm config set script-shell ./x", "runsCode"],
  ["npm init x", "runsCode"],
  ["npm install", null],
  ["npm ci --ignore-scripts", null],
  ["npm install left-pad", "runsCode"],
  ["npm i -D ./x.tgz", "runsCode"],
  ["npm add -- evil", "runsCode"],
  ["npm tes", "abbreviation"],
  ["npm test --registry=http://example.com", "unknownOption"],
  ["npm_config_script_shell=./x npm test", "environment"],
  ["PATH=.:/usr/bin git status", "environment"],
  ["env -i PATH=. git status", "environment"],
  ["env -C .. git status", "outsideWorkspace"],
  ["find / -name x", "outsideWorkspace"],
  ["find . -newer ../x", "outsideWorkspace"],
  ["find . -fprintf out '%p'", "writesFile"],
  ["find . -execdir ls ';'", "runsCode"],
  ["grep -r needle ~/.ssh", "outsideWorkspace"],
  ["grep -f ../patterns x", "outsideWorkspace"],
  ["rg --pre ./x needle", "runsCode"],
  ["rg -z needle", "runsCode"],
  ["sed -i s/a/b/ x", "writesFile"],
  ["sed 's/a/b/e' x", "runsCode"],
  ["sort -o out x", "writesFile"],
  ["sort --compress-program=./x x", "runsCode"],
  ["cat ~/.ssh/id_rsa", "outsideWorkspace"],
  ["ls /", "outsideWorkspace"],
  ["tee out.txt", "writesFile"],
  ["cp -t ../x a", "outsideWorkspace"],
  ["date -s 2020-01-01", "unknownOption"],
  ["head -c 10 /etc/shadow", "outsideWorkspace"],
  ["node -e 1", "runsCode"],
  ["node -r ./x.js build.js", "loadsCode"],
  ["node build.js", "runsScript"],
  ["node", "inputCommands"],
  ["python3 -c 'print(1)'", "runsCode"],
  ["python3 -m http.server", "runsScript"],
  ["perl -pi -e 's/a/b/' x", "runsCode"],
  ["bash x.sh", "runsScript"],
  ["bash --rcfile ./x -c 'git status'", "loadsCode"],
  ["sh", "inputCommands"],
  ["xargs echo", "inputCommands"],
  ["make test FOO=1", "unknownProgram"],
  ["/usr/bin/git status", "programSpelling"],
  ["./git status", "programSpelling"],
  ["Git status", "programSpelling"],
  ["git status > ../out.txt", "outsideWorkspace"],
  ["git status >& ../out.txt", "outsideWorkspace"],
  ["git status > out.txt", "shellSyntax"],
  ["git status && git log", "shellSyntax"],
  ["git log $(whoami)", "unreadable"],
  ["git log\u00a0-1", "notPlainText"],
  // Denied in any spelling, whatever allows the program.
  ["git -C . --no-pager push", "denied"],
  ["rm -Rf x", "denied"],
  ["env -S 'rm -fr x'", "denied"],
  ["env -- git push", "denied"],
  ["timeout -- 5 git push", "denied"],
  ["nice -- rm -r -f x", "denied"],
  ["rm --rec --for x", "denied"],
  ["rm -r --forc x", "denied"],
];

describe("command safety: rules that allow whole programs", () => {
  for (const [line, expected] of cases) {
    it(`${expected === null ? "runs" : expected === "denied" ? "denies" : `asks (${expected}) for`} ${JSON.stringify(line)}`, () => {
      const decision = decide(line);
      if (expected === null) assert.equal(decision.kind, "allow", JSON.stringify(decision));
      else if (expected === "denied") assert.ok(decision.kind === "ask" && decision.deniedBy !== null, JSON.stringify(decision));
      else assert.ok(decision.kind === "ask" && (decision.concerns ?? []).some((concern) => concern.kind === expected), JSON.stringify(decision));
    });
  }

  it("reads a line as cmd.exe does on Windows: ^ escapes, %VAR% and parentheses ask, quotes are not single quotes", () => {
    assert.equal(decide("git status", "cmd").kind, "allow");
    assert.deepEqual(decide("g^it pu^sh", "cmd"), { kind: "ask", deniedBy: 'run_command deny "git push"' });
    assert.equal(decide("git log %CMD%", "cmd").kind, "ask");
    assert.equal(decide("echo 'x & git push'", "cmd").kind, "ask");
    assert.equal(decide("echo 'x & git push'").kind, "allow", "a POSIX shell reads the quotes");
  });

  it("does not let a rule for a wrapper approve what the wrapper starts", () => {
    const wrappers = parseAutoApproveRules({ run_command: { allow: ["env*", "timeout*", "bash*"] } });
    for (const line of ["env rm x", "timeout 5 rm x", "bash -c 'rm x'", "env"]) {
      const decision = decideByRules({ toolName: "run_command", risk: "execute", command: line }, wrappers);
      assert.equal(decision.kind, line === "env" ? "allow" : "ask", line);
    }
  });

  it("lets an exact rule approve exactly its line, whatever it contains, and nothing else", () => {
    const exact = parseAutoApproveRules({ run_command: { allow: [{ pattern: "npm test --node-options=--max-old-space-size=4096", match: "exact" }], deny: ["npm publish"] } });
    const run = (line: string) => decideByRules({ toolName: "run_command", risk: "execute", command: line }, exact).kind;
    assert.equal(run("npm test --node-options=--max-old-space-size=4096"), "allow");
    assert.equal(run("npm test --node-options=--max-old-space-size=4097"), "ask");
    const globbing = parseAutoApproveRules({ run_command: { allow: [{ pattern: "ls *.ts", match: "exact" }, { pattern: "ls *.md", match: "exact", shellSyntax: true }] } });
    const glob = (line: string) => decideByRules({ toolName: "run_command", risk: "execute", command: line }, globbing).kind;
    assert.equal(glob("ls *.ts"), "ask", "a glob's words are only known when it runs: the exact rule must say shellSyntax");
    assert.equal(glob("ls *.md"), "allow");
  });

  it("names in the log the rules whose meaning is narrower than their text", () => {
    const old = parseAutoApproveRules({ run_command: { allow: ["make*", "*", "npm ci && npm test*", "git diff*"] } });
    assert.deepEqual(old.problems, [
      'run_command.allow "make*": Relay Chat does not know the arguments of make, so this rule approves "make" only with the words it spells out.',
      'run_command.allow: a rule must begin with the program it allows; the entry "*" was ignored.',
      'run_command.allow: a prefix or glob rule names one command; a line that chains or redirects needs "match": "exact"; the entry "npm ci && npm test*" was ignored.',
    ]);
    assert.deepEqual(
      old.commandAllow.map((pattern) => pattern.pattern),
      ["make*", "git diff*"],
    );
  });
});
