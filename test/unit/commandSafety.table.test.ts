import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { RuleDecision } from "../../src/tools/autoApproveRules";
import { decideByRules, parseAutoApproveRules } from "../../src/tools/autoApproveRules";
import type { ShellDialect } from "../../src/tools/commandSafety/shellLine";
import { runCommandLine } from "../../src/tools/commandRunner";
import type { AllowRow, DenyRow, Effect, RuleSetName } from "./commandSafetyTable";
import { allowRows, denyRows, ruleSets } from "./commandSafetyTable";

// Issue 37's table: every row decided under four rule sets, and every row run for real in a scratch folder, so what
// the table says a line does is what git, npm, curl, perl and node do with it here.

const repositoryRoot = path.resolve(__dirname, "..", "..");

/** The rules of the example in the documentation's "Approval rules" section: the README's example is a rule set of the table. */
function documentedRules(): unknown {
  const page = readFileSync(path.join(repositoryRoot, "docs", "tools-and-approval.md"), "utf8");
  const section = page.slice(page.indexOf("## Approval rules"));
  const block = /```jsonc\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  const json = block.replace(/\s\/\/.*$/gm, "");
  return (JSON.parse(`{${json}}`) as Record<string, unknown>)["relayChat.tools.autoApprove"];
}

const rules = Object.fromEntries((Object.keys(ruleSets) as RuleSetName[]).map((name) => [name, parseAutoApproveRules(name === "readme" ? documentedRules() : ruleSets[name])])) as Record<
  RuleSetName,
  ReturnType<typeof parseAutoApproveRules>
>;
const setNames = Object.keys(rules) as RuleSetName[];
const exampleUrl = "http://127.0.0.1:9/curl";

function decide(line: string, set: RuleSetName, dialect: ShellDialect): RuleDecision {
  return decideByRules({ toolName: "run_command", risk: "execute", command: line.replace(/\{url\}/g, exampleUrl) }, rules[set], false, dialect);
}

function dialectsOf(row: DenyRow): ShellDialect[] {
  return row.cmdOnly ? ["cmd"] : row.windows ? ["posix", "cmd"] : ["posix"];
}

const hasReason = (decision: RuleDecision) => decision.kind === "ask" && (decision.deniedBy !== null || (decision.concerns ?? []).length > 0);

describe("command safety: the table of issue 37, decided", () => {
  it("holds the review's 86 deny spellings and 21 allow lines, and reads the documented example rules", () => {
    assert.equal(denyRows.length, 86);
    assert.equal(allowRows.length, 21);
    assert.equal(new Set([...denyRows, ...allowRows].map((row) => row.line)).size, 107, "no line twice");
    assert.deepEqual(rules.readme.problems, []);
    assert.ok(rules.readme.commandAllow.length >= 5 && rules.readme.commandDeny.length >= 3);
    assert.deepEqual(rules.project.problems, []);
    // The log says where a rule means less than its text: curl has no table, so "curl*" approves the bare word only.
    assert.deepEqual(rules.tools.problems, [
      'run_command.allow "/usr/bin/curl*": Relay Chat does not know the arguments of /usr/bin/curl, so this rule approves "/usr/bin/curl" only with the words it spells out.',
      'run_command.allow "curl*": Relay Chat does not know the arguments of curl, so this rule approves "curl" only with the words it spells out.',
    ]);
  });

  for (const row of denyRows) {
    it(`asks for ${JSON.stringify(row.line)} under every rule set${row.hidden ? "" : ", naming the deny rule"}`, () => {
      for (const set of setNames) {
        for (const dialect of dialectsOf(row)) {
          const decision = decide(row.line, set, dialect);
          assert.equal(decision.kind, "ask", `${set}, ${dialect}: ${JSON.stringify(decision)}`);
          if (row.hidden === undefined) assert.notEqual(decision.kind === "ask" ? decision.deniedBy : null, null, `${set}, ${dialect}: the deny rule reads it`);
        }
      }
      // Where every program is allowed by name, the card says why it asks.
      for (const dialect of dialectsOf(row)) assert.ok(hasReason(decide(row.line, "tools", dialect)), `tools, ${dialect}: ${JSON.stringify(decide(row.line, "tools", dialect))}`);
    });
  }

  for (const row of allowRows) {
    it(`${row.runsUnder.length === 0 ? "asks for" : "decides"} ${JSON.stringify(row.line)}${row.runsUnder.length > 0 ? ` (runs under ${row.runsUnder.join(", ")})` : ""}`, () => {
      for (const set of setNames) {
        const decision = decide(row.line, set, "posix");
        assert.equal(decision.kind, row.runsUnder.includes(set) ? "allow" : "ask", `${set}: ${JSON.stringify(decision)}`);
        // A rule that names the program but does not cover the line says why on the card.
        if (decision.kind === "ask" && (set === "project" || set === "tools") && row.effect !== "nothing") assert.ok(hasReason(decision), `${set}: ${JSON.stringify(decision)}`);
      }
      if (row.effect !== "nothing") assert.equal(row.runsUnder.length, 0, "a line that does something dangerous never runs without a card");
    });
  }

  it("exercises every rule of the documented example", () => {
    const labels = new Set<string>();
    for (const row of allowRows) {
      const decision = decide(row.line, "readme", "posix");
      if (decision.kind === "allow") labels.add(decision.rule);
    }
    for (const row of denyRows) {
      const decision = decide(row.line, "readme", "posix");
      if (decision.kind === "ask" && decision.deniedBy !== null) labels.add(decision.deniedBy);
    }
    const documented = [...rules.readme.commandAllow.map((pattern) => `allow ${JSON.stringify(pattern.pattern)}`), ...rules.readme.commandDeny.map((pattern) => `deny ${JSON.stringify(pattern.pattern)}`)];
    for (const rule of documented) assert.ok([...labels].some((label) => label.startsWith(`run_command ${rule}`)), `${rule} is exercised by a row`);
  });
});

/** The scratch folder: a workspace with a git repository whose upstream is a bare remote, an npm package whose registry is a loopback server. */
interface Scratch {
  readonly root: string;
  readonly work: string;
  readonly remote: string;
  readonly secret: string;
  readonly url: string;
  readonly requests: { method: string; url: string }[];
  readonly env: NodeJS.ProcessEnv;
  readonly olderCommit: string;
  readonly headCommit: string;
}

function git(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env, encoding: "utf8" }).trim();
}

/** The outer test run's own npm and git settings must not reach the rows (npm run test:one sets npm_config_*). */
function scratchEnvironment(root: string): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_|NPM_|GIT_|NODE_OPTIONS$|INIT_CWD$)/.test(name)));
  return {
    ...inherited,
    HOME: path.join(root, "home"),
    XDG_CONFIG_HOME: path.join(root, "home", ".config"),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    npm_config_cache: path.join(root, "npm-cache"),
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
  };
}

async function makeScratch(): Promise<{ scratch: Scratch; server: Server }> {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), "relay-chat-command-table-")));
  const requests: { method: string; url: string }[] = [];
  const server = createServer((request, response) => {
    requests.push({ method: request.method ?? "", url: request.url ?? "" });
    request.resume();
    request.on("end", () => {
      response.setHeader("content-type", "application/json");
      // The registry knows no package (so npm publishes a first version) and accepts every upload.
      response.statusCode = request.method === "GET" && request.url !== "/curl" ? 404 : 200;
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const env = scratchEnvironment(root);
  const work = path.join(root, "work");
  const remote = path.join(root, "remote.git");
  mkdirSync(path.join(root, "home"), { recursive: true });
  writeFileSync(path.join(root, "home", ".gitconfig"), "[user]\n\tname = Table\n\temail = table@example.invalid\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n");
  const secret = `secret-${randomBytes(8).toString("hex")}`;
  writeFileSync(path.join(root, "secret.txt"), `${secret}\n`);
  git(root, env, "init", "-q", "--bare", remote);
  mkdirSync(work);
  git(work, env, "init", "-q");
  writeFileSync(path.join(work, "package.json"), JSON.stringify({ name: "table-pkg", version: "1.0.0", scripts: { test: "node -e 0 --", build: "node -e 0 --", x: "node -e 0 --" } }, null, 2));
  writeFileSync(path.join(work, "package-lock.json"), JSON.stringify({ name: "table-pkg", version: "1.0.0", lockfileVersion: 3, requires: true, packages: { "": { name: "table-pkg", version: "1.0.0" } } }, null, 2));
  writeFileSync(path.join(work, ".npmrc"), `registry=${url}/\n//127.0.0.1:${new URL(url).port}/:_authToken=table-token\n`);
  // Programs a line may name to prove it ran code: they only create the marker file in the workspace.
  writeFileSync(path.join(work, "evil.sh"), "#!/bin/sh\ntouch marker\n");
  chmodSync(path.join(work, "evil.sh"), 0o755);
  writeFileSync(path.join(work, "evil.js"), 'require("fs").writeFileSync("marker", "")\n');
  writeFileSync(path.join(work, ".gitignore"), "victim/\nmarker\nnode_modules/\n");
  writeFileSync(path.join(work, "a.txt"), "one\n");
  git(work, env, "add", "-A");
  git(work, env, "commit", "-q", "-m", "one");
  writeFileSync(path.join(work, "a.txt"), "one\ntwo\n");
  git(work, env, "commit", "-q", "-am", "two");
  git(work, env, "remote", "add", "origin", remote);
  git(work, env, "push", "-q", "-u", "origin", "main");
  const other = path.join(root, "other");
  mkdirSync(other);
  git(other, env, "init", "-q");
  git(other, env, "commit", "-q", "--allow-empty", "-m", secret);
  return {
    server,
    scratch: { root, work, remote, secret, url, requests, env, olderCommit: git(work, env, "rev-parse", "HEAD~1"), headCommit: git(work, env, "rev-parse", "HEAD") },
  };
}

/** Puts the scratch folder back as every row expects it: the remote one commit behind, the victim folder there, no marker. */
function resetScratch(scratch: Scratch): void {
  git(scratch.remote, scratch.env, "update-ref", "refs/heads/main", scratch.olderCommit);
  scratch.requests.length = 0;
  mkdirSync(path.join(scratch.work, "victim"), { recursive: true });
  writeFileSync(path.join(scratch.work, "victim", "file"), "keep me\n");
  rmSync(path.join(scratch.work, "marker"), { force: true });
  rmSync(path.join(scratch.root, "outside.txt"), { force: true });
}

function observedEffects(scratch: Scratch, output: string): Set<Effect> {
  const effects = new Set<Effect>();
  if (git(scratch.remote, scratch.env, "rev-parse", "refs/heads/main") === scratch.headCommit) effects.add("push");
  if (scratch.requests.some((request) => request.method === "PUT")) effects.add("publish");
  if (!existsSync(path.join(scratch.work, "victim"))) effects.add("delete");
  if (scratch.requests.some((request) => request.url === "/curl")) effects.add("download");
  if (existsSync(path.join(scratch.work, "marker"))) effects.add("marker");
  if (existsSync(path.join(scratch.root, "outside.txt"))) effects.add("outsideWrite");
  if (output.includes(scratch.secret)) effects.add("outsideRead");
  return effects;
}

/** Programs a row needs; a machine without one skips the rows that name it. */
const neededPrograms = ["git", "npm", "curl", "perl", "bash", "timeout", "xargs", "find"];

describe("command safety: the table of issue 37, run for real in a scratch folder", function () {
  this.timeout(60_000);
  let scratch: Scratch;
  let server: Server;
  let missing: string[] = [];
  const tally = { asSaid: 0, dangerous: 0, notHere: 0 };

  before(async function () {
    this.timeout(120_000);
    missing = neededPrograms.filter((program) => {
      try {
        execFileSync("sh", ["-c", `command -v ${program}`], { stdio: "ignore" });
        return false;
      } catch {
        return true;
      }
    });
    ({ scratch, server } = await makeScratch());
  });

  after(() => {
    server?.close();
    if (scratch !== undefined) rmSync(scratch.root, { recursive: true, force: true });
    // For the report: how many rows did their thing here, and how many are spellings of other systems or dry runs.
    console.log(`      command table: ${tally.asSaid} of ${denyRows.length + allowRows.length} rows did what the table says when run here, ${tally.dangerous} of them the dangerous thing; ${tally.notHere} are spellings for other systems or a dry run and did nothing here`);
  });

  const rows: Array<DenyRow | AllowRow> = [...denyRows, ...allowRows];
  for (const row of rows) {
    const expected = row.here === true && row.effect !== "nothing" ? [row.effect] : [];
    it(`${JSON.stringify(row.line)} ${expected.length > 0 ? `does ${row.effect}` : row.here === true ? "does nothing dangerous" : `does nothing here (${row.here})`}`, async function () {
      const needs = missing.filter((program) => new RegExp(`(^|[\\s/'"|;(])${program}\\b`).test(row.line));
      const absoluteProgram = /^(\/\S+)/.exec(row.line)?.[1];
      if (needs.length > 0 || (absoluteProgram !== undefined && !existsSync(absoluteProgram))) this.skip();
      assert.ok(scratch.work.startsWith(realpathSync(tmpdir())), "rows run only inside the scratch folder");
      resetScratch(scratch);
      const result = await runCommandLine({ commandLine: row.line.replace(/\{url\}/g, `${scratch.url}/curl`), cwd: scratch.work, timeoutMs: 45_000, maxOutputChars: 200_000, env: scratch.env });
      assert.equal(result.timedOut, false, result.output);
      const effects = observedEffects(scratch, result.output);
      assert.deepEqual([...effects].sort(), expected, `exit ${result.exitCode}: ${result.output.slice(-2000)}`);
      if (row.effect === "nothing") assert.equal(result.exitCode, 0, result.output);
      tally.asSaid++;
      if (expected.length > 0) tally.dangerous++;
      if (row.here !== true) tally.notHere++;
    });
  }
});
