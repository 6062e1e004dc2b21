import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startRelayEmulator } from "../emulator/server";
import type { RelayEmulator } from "../emulator/server";
import { runCli } from "../support/cliProcess";

// `relay-chat ask` tells the model what the panel does: the base instruction with the working directory as
// the workspace, --system TEXT, and the directory's rules files unless --no-rules. Run as a user does, a
// separate process in the directory, against the emulator, which records the body.

const KEY = "sk-cli-rules-key-0123456789abcdef";
function runCliIn(cwd: string, args: string[], baseUrl: string) {
  return runCli(args, { RELAY_CHAT_API_KEY: KEY, RELAY_CHAT_BASE_URL: baseUrl }, "", cwd);
}

describe("CLI: what the model is told", function () {
  this.timeout(60_000);
  let emulator: RelayEmulator;
  let folder: string;
  before(async () => {
    emulator = await startRelayEmulator({ keys: [{ key: KEY, name: "cli" }] });
    folder = await mkdtemp(path.join(tmpdir(), "relay-cli-rules-"));
    await writeFile(path.join(folder, "AGENTS.md"), "CLI root rule.");
    await mkdir(path.join(folder, ".github"), { recursive: true });
    await writeFile(path.join(folder, ".github/copilot-instructions.md"), "CLI copilot rule.");
  });
  after(async () => {
    await emulator.close();
    await rm(folder, { recursive: true, force: true });
  });

  const lastInstructions = () => (emulator.received.filter((request) => request.method === "POST").at(-1)?.body as { instructions?: string }).instructions ?? "";

  it("sends the base instruction, --system and the working directory's rules, and lists them with --json", async () => {
    const run = await runCliIn(folder, ["ask", "--model", "echo", "--json", "--system", "Answer tersely.", "hi"], emulator.baseUrl);
    assert.equal(run.code, 0, run.stderr);
    const sent = lastInstructions();
    for (const expected of ["You are a coding assistant in Relay Chat", `Workspace folders: ${path.basename(folder)}`, "none are offered", "Answer tersely.", "CLI root rule.", "CLI copilot rule."]) assert.ok(sent.includes(expected), expected);
    assert.deepEqual((JSON.parse(run.stdout) as { instructionSources: string[] }).instructionSources, ["Relay Chat base instruction v2", "--system", "AGENTS.md", ".github/copilot-instructions.md"]);
  });

  it("--no-rules leaves the rules files out", async () => {
    const run = await runCliIn(folder, ["ask", "--model", "echo", "--json", "--no-rules", "hi"], emulator.baseUrl);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(lastInstructions().includes("CLI root rule."), false);
    assert.deepEqual((JSON.parse(run.stdout) as { instructionSources: string[] }).instructionSources, ["Relay Chat base instruction v2"]);
  });
});
