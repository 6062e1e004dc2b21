import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { startRelayEmulator } from "../emulator/server";
import type { RelayEmulator } from "../emulator/server";
import { runCli } from "../support/cliProcess";

// Issue 27, the command line as a new user meets it: each command's own help, a piped prompt, and the README's
// example run against the demo's emulator (the profile and model `npm run demo` starts).

const KEY = "sk-cli-commands-0123456789abcdef";

describe("CLI: help, piped prompts and the README's example", function () {
  this.timeout(60_000);
  let emulator: RelayEmulator;
  before(async () => {
    emulator = await startRelayEmulator({ keys: [{ key: KEY, name: "cli" }], profile: "openai" });
  });
  after(async () => emulator.close());
  const environment = () => ({ RELAY_CHAT_API_KEY: KEY, RELAY_CHAT_BASE_URL: `${emulator.baseUrl}/v1` });

  const helps: Array<[string[], RegExp]> = [
    [["ask", "--help"], /^Usage: relay-chat ask --model ID/],
    [["ask", "-h"], /^Usage: relay-chat ask --model ID/],
    [["help", "ask"], /^Usage: relay-chat ask --model ID/],
    [["models", "--help"], /^Usage: relay-chat models/],
    [["check", "--help"], /^Usage: relay-chat check --model ID/],
    [["balance", "--help"], /^Usage: relay-chat balance/],
  ];
  for (const [args, first] of helps) {
    it(`${args.join(" ")} prints that command's own help, not the general one`, async () => {
      const run = await runCli(args, environment());
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, first);
      assert.doesNotMatch(run.stdout, /^Usage:\n/, "not the general usage");
      assert.equal(emulator.received.length, 0, "help sends nothing");
    });
  }

  it("--help alone still prints the general usage, naming every command and how to get its help", async () => {
    const run = await runCli(["--help"], environment());
    assert.equal(run.code, 0);
    for (const command of ["ask", "models", "check", "balance"]) assert.match(run.stdout, new RegExp(`relay-chat ${command} `));
    assert.match(run.stdout, /relay-chat COMMAND --help/);
  });

  it("reads the prompt from standard input when none is given (echo … | relay-chat ask --model m), or for \"-\"", async () => {
    const piped = await runCli(["ask", "--model", "echo", "--json"], environment(), "hello from a pipe\n");
    assert.equal(piped.code, 0, piped.stderr);
    assert.match((JSON.parse(piped.stdout) as { text: string }).text, /hello from a pipe/);
    const dash = await runCli(["ask", "--model", "echo", "-"], environment(), "dash prompt");
    assert.equal(dash.code, 0, dash.stderr);
    assert.match(dash.stdout, /dash prompt/);
    const nothing = await runCli(["ask", "--model", "echo"], environment(), "");
    assert.equal(nothing.code, 2);
    assert.match(nothing.stderr, /a prompt \(as arguments, or piped to standard input\)/);
    assert.match(nothing.stderr, /^Usage: relay-chat ask/m);
  });

  it("the documentation's `ask --json --no-stream --max-output-tokens 200 \"Hello\"` completes against the demo model", async () => {
    const page = readFileSync(path.resolve(__dirname, "../../docs/cli.md"), "utf8");
    const line = page.split("\n").find((each) => each.includes("--max-output-tokens 200") && each.startsWith("node dist/cli.js ask"));
    assert.ok(line, "docs/cli.md's example");
    const command = line.replace(/#.*$/, "").replace("node dist/cli.js ", "").trim();
    const args = [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2]!).map((word) => (word === "MODEL" ? "demo" : word));
    assert.deepEqual(args, ["ask", "--model", "demo", "--json", "--no-stream", "--max-output-tokens", "200", "Hello"]);
    const run = await runCli(args, environment());
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const parsed = JSON.parse(run.stdout) as { outcome: string; text: string };
    assert.equal(parsed.outcome, "completed");
    assert.match(parsed.text, /demo model/);
  });
});
