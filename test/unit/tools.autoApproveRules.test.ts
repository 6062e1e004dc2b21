import assert from "node:assert/strict";
import { createApprovalGate } from "../../src/tools/approvalGate";
import type { ApprovalRequest, ProposedRule } from "../../src/tools/approvalGate";
import { SessionAllowances } from "../../src/tools/approvalPolicy";
import type { ApprovalAnswer, ApprovedBy, ReadOnlyDefault } from "../../src/tools/approvalPolicy";
import { decideByRules, parseAutoApproveRules, withRuleAdded } from "../../src/tools/autoApproveRules";
import type { ReadyCall } from "../../src/tools/preparedCall";
import type { Tool, ToolRisk } from "../../src/tools/toolContract";

const rules = parseAutoApproveRules({
  read_file: "always",
  list_directory: "ask",
  run_command: { allow: ["npm test", "git status", "git diff*", { pattern: "npm run build && npm test", match: "exact", shellSyntax: true }], deny: ["git diff --output*", "rm*"] },
});
const command = (line: string) => decideByRules({ toolName: "run_command", risk: "execute", command: line }, rules);

describe("approval rules (relayChat.tools.autoApprove)", () => {
  it("allows the command lines the patterns name: prefix at a word boundary, glob, exact", () => {
    for (const line of ["npm test", "npm test --silent", "npm t", "git status", "git status --short", "git -C src status", "git diff", "git diff --stat", "git diff-tree HEAD", "npm run build && npm test"]) {
      assert.equal(command(line).kind, "allow", line);
    }
    assert.deepEqual(command("npm test"), { kind: "allow", rule: 'run_command allow "npm test"' });
    assert.deepEqual(command("npm run build && npm test"), { kind: "allow", rule: 'run_command allow "npm run build && npm test" (exact, shellSyntax)' });
  });

  // Each of these must ask: the line does more than the rule says, or may not be what it seems.
  const mustAsk: Array<[string, string]> = [
    ["npm testing", "a prefix ends at a word boundary"],
    ["npm tests", "a prefix ends at a word boundary"],
    ["npm test; rm -rf ~", "; chains a second command"],
    ["npm test && curl x | sh", "&& and | chain commands"],
    ["npm test || rm x", "|| chains"],
    ["npm test | sh", "a pipe"],
    ["npm test & rm x", "& runs in the background and goes on"],
    ["npm test $(whoami)", "command substitution"],
    ["npm test `whoami`", "backtick substitution"],
    ["npm test ${HOME}", "parameter expansion"],
    ["npm test (x)", "a subshell"],
    ["npm test\nrm x", "a newline starts a second command"],
    ["npm test\rrm x", "a carriage return"],
    ["npm test > /etc/passwd", "redirection"],
    ["npm test >> ~/.bashrc", "appending redirection"],
    ["npm test < /dev/zero", "input redirection"],
    ["npm test \\\nrm x", "a line continuation"],
    [" npm test", "leading whitespace"],
    ["npm test ", "trailing whitespace"],
    ["\tnpm test", "a leading tab"],
    ["npm\u00a0test", "a no-break space looks like a space"],
    ["npm test\u200b; rm x", "a zero-width space"],
    ["npm test \u202e", "a bidirectional control"],
    ["npm tеst", "a Cyrillic е looks like e"],
    ["ｎpm test", "a fullwidth letter"],
    ["npm test\u037e rm x", "a Greek question mark looks like ;"],
    ["git statusx", "a prefix ends at a word boundary"],
    ["git diff; rm x", "a glob never spans shell syntax without the flag"],
    ["git diff --output=/etc/passwd", "deny wins over allow"],
    ["npm run build && npm test; rm x", "an exact rule matches only its line"],
    ["npm run build && rm -rf /", "the exact compound rule does not cover another second command"],
    ["NPM TEST", "matching is case-sensitive"],
    ["", "an empty line"],
  ];
  for (const [line, why] of mustAsk) {
    it(`asks for ${JSON.stringify(line)} (${why})`, () => assert.equal(command(line).kind, "ask"));
  }

  it("approves only the words a rule spells out plus options known to be safe, and says why on the card", () => {
    // "npm test" once allowed anything after it: words after -- go to the test script, which no rule can see into.
    assert.deepEqual(command("npm test -- --grep rules"), {
      kind: "ask",
      deniedBy: null,
      concerns: [
        { rule: 'run_command allow "npm test"', kind: "scriptArguments", subject: "--grep" },
        { rule: 'run_command allow "npm test"', kind: "scriptArguments", subject: "rules" },
      ],
    });
    // The deny rule names a behaviour: --output after another option is still --output (the review's `--stat --output`).
    assert.deepEqual(command("git diff --stat --output=../outside.txt"), { kind: "ask", deniedBy: 'run_command deny "git diff --output*"' });
    const withoutDeny = parseAutoApproveRules({ run_command: { allow: ["git diff*"] } });
    assert.deepEqual(decideByRules({ toolName: "run_command", risk: "execute", command: "git diff --stat --output=../outside.txt" }, withoutDeny), {
      kind: "ask",
      deniedBy: null,
      concerns: [{ rule: 'run_command allow "git diff*"', kind: "writesFile", subject: "--output=../outside.txt" }],
    });
    assert.deepEqual(command("git difftool -y -x 'touch marker #' HEAD~1 HEAD"), { kind: "ask", deniedBy: null, concerns: [{ rule: 'run_command allow "git diff*"', kind: "runsCode", subject: "git difftool" }] });
  });

  it("checks deny patterns against every command of a chain, even one an allow rule would match", () => {
    const chained = parseAutoApproveRules({ run_command: { allow: [{ pattern: "npm run *", shellSyntax: true }], deny: ["git push*"] } });
    const decide = (line: string) => decideByRules({ toolName: "run_command", risk: "execute", command: line }, chained);
    assert.equal(decide("npm run lint && npm run test").kind, "allow");
    assert.deepEqual(decide("npm run lint && git push --force"), { kind: "ask", deniedBy: 'run_command deny "git push*"' });
    assert.deepEqual(decide("npm run x $(git push)"), { kind: "ask", deniedBy: 'run_command deny "git push*"' });
  });

  // Other spellings of a denied command: the shell gives each the argv of the denied form, or the line cannot be
  // reduced to words safely. Each must ask, though an allow rule covers the program.
  const spelled = parseAutoApproveRules({ run_command: { allow: ["npm*", "git*", "env*", "command*", "sudo*", "bash*", "eval*", "nohup*", "echo*"], deny: ["npm publish*", "git push*"] } });
  const spelledDecision = (line: string) => decideByRules({ toolName: "run_command", risk: "execute", command: line }, spelled);
  const otherSpellings: Array<[string, string]> = [
    ["npm  publish", "two spaces"],
    ["npm 'publish'", "single quotes"],
    ['npm "publish"', "double quotes"],
    ["npm pub''lish", "an empty quote inside the word"],
    ["git  push --force", "two spaces"],
    ["git 'push' --force", "single quotes"],
    ['git p""ush --force', "an empty double quote inside the word"],
    ["git -C . push", "git's -C dir"],
    ["git -c x=y push", "git's -c k=v"],
    ["git --no-pager push", "git's --no-pager"],
    ["git --git-dir .git --work-tree . push", "git's --git-dir and --work-tree"],
    ["git\tpush", "a tab"],
    ["npm --prefix x publish", "npm's --prefix"],
    ["npm -w a publish", "npm's -w"],
    ["npm --workspace=a publish", "npm's --workspace="],
    ["npm --dry-run publish", "an npm flag"],
    ["env X=1 npm publish", "env with an assignment"],
    ["env -u HOME npm publish", "env with an option"],
    ["X=1 npm publish", "an assignment before the command"],
    ["command git push", "the command builtin"],
    ["sudo git push", "sudo"],
    ["sudo -u root env X=1 git -C . push", "wrappers on wrappers"],
    ["nohup git push", "nohup"],
    ["bash -c 'git push'", "a shell running a script"],
    ["eval git push", "eval"],
    ["echo ok && git push", "&& with a denied part"],
    ["echo ok; npm publish", "; with a denied part"],
    ["echo ok | git push", "| with a denied part"],
    ["echo ok\ngit push", "a newline"],
    ["echo ok\n  npm 'publish'", "a newline and quotes"],
    ["echo $(git push)", "command substitution"],
    ["echo `npm publish`", "backticks"],
    ["git \\p\\u\\s\\h", "backslash escapes"],
    ["git pu\\\nsh", "a line continuation inside the word"],
    ["git $CMD", "a variable"],
    ["git pu*", "a glob could expand to push"],
    ["git pu?h", "a glob could expand to push"],
    ["git {push,x}", "brace expansion"],
    ["$GIT push", "a variable in the command position"],
    ["git 'push", "an unbalanced quote"],
    ['git "push', "an unbalanced double quote"],
    ["git push 2>&1", "a redirection after the denied command"],
    ["git > out push", "a redirection in the middle"],
    ["! git push", "a negated pipeline"],
  ];
  for (const [line, why] of otherSpellings) {
    it(`asks for ${JSON.stringify(line)} under deny ["npm publish*","git push*"] (${why})`, () => assert.equal(spelledDecision(line).kind, "ask"));
  }

  it("names the deny rule on the card for another spelling, and still allows the plain commands", () => {
    assert.deepEqual(spelledDecision("git -C . 'push' --force"), { kind: "ask", deniedBy: 'run_command deny "git push*"' });
    assert.deepEqual(spelledDecision("npm --prefix x pub''lish"), { kind: "ask", deniedBy: 'run_command deny "npm publish*"' });
    for (const line of ["npm test", "git status", "git -C . status", "npm run build", "git log --oneline", "git commit -m 'not push'"]) {
      assert.equal(spelledDecision(line).kind, "allow", line);
    }
  });

  it("lets read-only tools run on \"always\" and nothing else", () => {
    assert.deepEqual(decideByRules({ toolName: "read_file", risk: "read" }, rules), { kind: "allow", rule: "read_file: always" });
    assert.equal(decideByRules({ toolName: "list_directory", risk: "read" }, rules).kind, "ask");
    const risky = parseAutoApproveRules({ propose_edit: "always", some_mcp_tool: "always", run_command: "always" });
    assert.equal(decideByRules({ toolName: "propose_edit", risk: "write" }, risky).kind, "ask");
    assert.equal(decideByRules({ toolName: "some_mcp_tool", risk: "external" }, risky).kind, "ask");
    assert.equal(decideByRules({ toolName: "run_command", risk: "execute", command: "ls" }, risky).kind, "ask");
  });

  it("reports what it ignores, and never an empty or padded pattern", () => {
    const parsed = parseAutoApproveRules({ read_file: "sometimes", run_command: { allow: ["", " npm test", { pattern: "ls", match: "regex" }, 3], deny: "rm*", extra: 1 } });
    assert.equal(parsed.commandAllow.length, 0);
    assert.equal(parsed.commandDeny.length, 0);
    assert.equal(parsed.alwaysTools.size, 0);
    assert.equal(parsed.problems.length, 7, parsed.problems.join("\n"));
    assert.match(parsed.problems.join("\n"), /empty pattern would match everything/);
    assert.deepEqual(parseAutoApproveRules("always").problems, ["relayChat.tools.autoApprove must be an object; it was ignored."]);
  });

  it("adds the exact rule \"Always allow\" writes, keeping the rest of the setting", () => {
    const current = { read_file: "always", run_command: { allow: ["git status"], deny: ["rm*"] } };
    assert.deepEqual(withRuleAdded(current, "run_command", "npm test"), {
      read_file: "always",
      run_command: { allow: ["git status", { pattern: "npm test", match: "exact" }], deny: ["rm*"] },
    });
    assert.deepEqual(withRuleAdded(undefined, "run_command", "npm ci && npm test"), { run_command: { allow: [{ pattern: "npm ci && npm test", match: "exact", shellSyntax: true }] } });
    // A glob's words are only known when it runs: the rule says so, or it would never apply.
    assert.deepEqual(withRuleAdded(undefined, "run_command", "ls *.ts"), { run_command: { allow: [{ pattern: "ls *.ts", match: "exact", shellSyntax: true }] } });
    assert.deepEqual(withRuleAdded(current, "list_directory", null), { ...current, list_directory: "always" });
    assert.deepEqual(current.run_command.allow, ["git status"], "the current value is not changed in place");
  });
});

function tool(name: string, risk: ToolRisk): Tool {
  return { name, description: `does ${name}`, risk, parameters: { type: "object" }, argumentRoles: name === "run_command" ? { command: "command" } : {}, run: async () => "" };
}

describe("the approval gate honours the rules, read at each decision", () => {
  const runCommand = tool("run_command", "execute");
  const call = (line: string, id = "call_1"): ReadyCall => ({ status: "ready", call_id: id, tool: runCommand, args: { command: line } });

  function gateWith(setting: () => unknown, answers: ApprovalAnswer[], options: { trusted?: boolean; confirm?: boolean[] } = {}) {
    const asked: ApprovalRequest[] = [];
    const confirmed: ProposedRule[] = [];
    const withoutCard: ApprovedBy[] = [];
    const gate = createApprovalGate(
      () => ({ trusted: options.trusted ?? true, disabledToolNames: new Set(), sessionAllowances: new SessionAllowances(), rules: parseAutoApproveRules(setting()) }),
      async (request) => {
        asked.push(request);
        return answers.shift() ?? "deny";
      },
      () => [],
      {
        confirmRule: async (rule) => {
          confirmed.push(rule);
          return options.confirm?.shift() ?? true;
        },
        approvedWithoutCard: (_call, approvedBy) => withoutCard.push(approvedBy),
      },
    );
    return { gate, asked, confirmed, withoutCard };
  }

  it("runs an allowed command without a card and says which rule allowed it; a different command still asks", async () => {
    const { gate, asked, withoutCard } = gateWith(() => ({ run_command: { allow: ["npm test"] } }), ["deny"]);
    assert.equal(await gate(call("npm test")), "approve");
    assert.deepEqual(withoutCard, [{ kind: "rule", rule: 'run_command allow "npm test"' }]);
    assert.equal(asked.length, 0);
    assert.equal(await gate(call("npm test; rm -rf ~")), "deny");
    assert.equal(asked.length, 1);
  });

  it("reads the rules again for every call, and ignores them in an untrusted workspace or with hidden characters", async () => {
    let setting: unknown = {};
    const { gate, asked } = gateWith(() => setting, ["deny", "deny", "deny"]);
    assert.equal(await gate(call("npm test")), "deny");
    setting = { run_command: { allow: ["npm test"] } };
    assert.equal(await gate(call("npm test")), "approve", "a rule added while the window is open applies at once");
    assert.equal(asked.length, 1);
    const untrusted = gateWith(() => setting, ["deny"], { trusted: false });
    assert.equal(await untrusted.gate(call("npm test")), "deny");
    assert.equal(untrusted.asked[0]!.alwaysAllow, null, "no rule is offered where rules do not apply");
  });

  it("offers Always allow, writes the exact rule once confirmed, and shows the card again when the person cancels", async () => {
    const { gate, asked, confirmed } = gateWith(() => ({}), ["always_allow", "always_allow", "deny"], { confirm: [false, true] });
    assert.equal(await gate(call("npm test")), "approve");
    assert.equal(asked.length, 2, "cancelled once, so the card came back");
    assert.equal(asked[0]!.alwaysAllow, "command");
    assert.deepEqual(confirmed, [
      { toolName: "run_command", command: "npm test" },
      { toolName: "run_command", command: "npm test" },
    ]);
    const readFile: ReadyCall = { status: "ready", call_id: "call_r", tool: tool("read_file", "read"), args: { path: "a.txt" } };
    const reading = gateWith(() => ({}), ["always_allow"]);
    assert.equal(await reading.gate(readFile), "approve");
    assert.equal(reading.asked[0]!.alwaysAllow, "tool");
    assert.deepEqual(reading.confirmed, [{ toolName: "read_file", command: null }]);
  });

  it("names the deny rule on the card and offers no Always allow for a denied command", async () => {
    const { gate, asked } = gateWith(() => ({ run_command: { allow: ["git*"], deny: ["git push*"] } }), ["deny"]);
    assert.equal(await gate(call("git push --force")), "deny");
    assert.equal(asked[0]!.deniedByRule, 'run_command deny "git push*"');
    assert.equal(asked[0]!.alwaysAllow, null);
  });

  it("tells the card why an allow rule that names the command did not cover it", async () => {
    const { gate, asked } = gateWith(() => ({ run_command: { allow: ["npm test", "git diff*"] } }), ["deny", "deny"]);
    assert.equal(await gate(call("npm test --node-options=--require=./x.js")), "deny");
    assert.deepEqual(asked[0]!.commandConcerns, [{ rule: 'run_command allow "npm test"', kind: "loadsCode", subject: "--node-options=--require=./x.js" }]);
    assert.equal(asked[0]!.deniedByRule, null);
    assert.equal(asked[0]!.alwaysAllow, "command", "an exact rule for this very line can still be written");
    await gate(call("ls"));
    assert.equal(asked[1]!.commandConcerns, undefined, "no rule names ls: nothing to explain");
  });

  it("never offers Always allow for a command with hidden characters, or for an edit", async () => {
    const { gate, asked } = gateWith(() => ({}), ["deny", "deny"]);
    await gate(call("npm test\u200b"));
    assert.equal(asked[0]!.alwaysAllow, null);
    await gate({ status: "ready", call_id: "call_e", tool: tool("propose_edit", "write"), args: {} });
    assert.equal(asked[1]!.alwaysAllow, null);
  });

  describe("the one first-use question about read-only tools", () => {
    const readFile = (id: string): ReadyCall => ({ status: "ready", call_id: id, tool: tool("read_file", "read"), args: { path: "a.txt" } });

    function firstUse(answers: ApprovalAnswer[], setting: unknown = {}) {
      let choice: ReadOnlyDefault = null;
      const asked: ApprovalRequest[] = [];
      const withoutCard: ApprovedBy[] = [];
      const gate = createApprovalGate(
        () => ({ trusted: true, disabledToolNames: new Set(), sessionAllowances: new SessionAllowances(), rules: parseAutoApproveRules(setting), readOnlyDefault: choice }),
        async (request) => {
          asked.push(request);
          return answers.shift() ?? "deny";
        },
        () => [],
        { rememberReadOnlyDefault: (chosen) => (choice = chosen), approvedWithoutCard: (_call, approvedBy) => withoutCard.push(approvedBy) },
      );
      return { gate, asked, withoutCard, choice: () => choice };
    }

    it("asks once on the first read-only card; yes lets the next read-only calls run without a card, except a tool set to ask", async () => {
      const yes = firstUse(["read_only_always", "deny"], { list_directory: "ask" });
      assert.equal(await yes.gate(readFile("call_1")), "approve");
      assert.equal(yes.asked[0]!.offerReadOnlyDefault, true);
      assert.equal(yes.choice(), "always");
      assert.equal(await yes.gate(readFile("call_2")), "approve");
      assert.deepEqual(yes.withoutCard, [{ kind: "rule", rule: "read-only tools: always (your first-use choice)" }]);
      const listing: ReadyCall = { status: "ready", call_id: "call_3", tool: tool("list_directory", "read"), args: {} };
      assert.equal(await yes.gate(listing), "deny", "a tool set to ask asks");
      assert.equal(yes.asked.length, 2);
      assert.equal(yes.asked[1]!.offerReadOnlyDefault, false, "asked once only");
    });

    it("remembers any other answer as keep asking, and never asks it for a command", async () => {
      const no = firstUse(["approve", "approve", "approve"]);
      await no.gate({ status: "ready", call_id: "call_c", tool: tool("run_command", "execute"), args: { command: "ls" } });
      assert.equal(no.asked[0]!.offerReadOnlyDefault, false);
      assert.equal(no.choice(), null);
      await no.gate(readFile("call_1"));
      assert.equal(no.choice(), "ask");
      await no.gate(readFile("call_2"));
      assert.equal(no.asked.length, 3, "read-only calls keep asking");
      assert.equal(no.asked[2]!.offerReadOnlyDefault, false);
    });
  });
});
