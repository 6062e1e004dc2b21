import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createConversation } from "../../src/chat/conversation";
import { FileStorage } from "../../src/chat/fileStorage";
import { HistoryStore } from "../../src/chat/historyStore";
import { redactingStorage } from "../../src/chat/redactingStorage";
import { readRulesFolder } from "../../src/instructions/rulesOnDisk";
import { slashCommands } from "../../src/instructions/slashCommands";
import { instructionsDocument } from "../../src/panel/context/instructionsDocument";
import type { WorkspaceContextSource } from "../../src/panel/panelServices";
import { WorkspaceFiles } from "../../src/panel/context/workspaceFiles";
import { REDACTED, removeKeys } from "../../src/relay/redact";
import { workingTreeChanges } from "../../src/tools/gitChanges";
import { terminalText } from "../../src/tools/terminalOutputTool";
import type { TerminalSnapshot } from "../../src/tools/terminalOutputTool";
import type { PanelHostHarness } from "../fixtures/panel/panelHostHarness";
import { panelAssembly, startPanelHostHarness } from "../fixtures/panel/panelHostHarness";

// Every stored relay key (the active relay's, another relay's, and one from the environment) is taken out of what
// the model is given: a #Terminal attachment, a #Changes diff of a tracked file, an attached file, a rules file and
// the typed message. None of the keys reaches the relay emulator's received bytes or the history files; the chips
// and the Rules chip say a key was removed. The terminal's and the diff's text are made by the same functions the
// editor's adapter uses (src/host/context/workspaceContext.ts); the diff comes from a real git repository.

async function filesUnder(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of await readdir(folder)) {
    const full = path.join(folder, name);
    if ((await stat(full)).isDirectory()) found.push(...(await filesUnder(full)));
    else found.push(full);
  }
  return found;
}

describe("the relay key never goes into context or history (Node, relay emulator)", function () {
  this.timeout(60_000);
  const environmentKey = "sk-environment-key-7c1f0e9a2b4d6f8a";
  let workspace: string;
  let harness: PanelHostHarness;

  afterEach(async () => {
    await harness?.close();
    await rm(workspace, { recursive: true, force: true });
  });

  it("takes every stored key out of a terminal, a diff, a rules file, an attached file and the message, and marks the chips", async () => {
    workspace = await realpath(await mkdtemp(path.join(tmpdir(), "relay-key-context-")));
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: workspace, stdio: "pipe" });
    git("init", "-q");
    await writeFile(path.join(workspace, "config.ts"), "export const apiKey = process.env.KEY;\n");
    git("add", "config.ts");
    git("commit", "-q", "-m", "first");
    let keys: { active: string; other: string } = { active: "", other: "" };
    // The diff of a tracked file, the terminal, the file and the rules file each hold a key; filled in once known.
    const terminal = (): TerminalSnapshot => ({ available: true, terminal: "bash", runs: [{ terminal: "bash", commandLine: "env | grep KEY", exitCode: 0, output: `RELAY_CHAT_API_KEY=${keys.other}\nDONE\n` }] });
    const workspaceContext: WorkspaceContextSource = {
      attachment: async (request) => {
        if (request.source === "terminal") return { ok: true, attachment: { kind: "terminal", label: "Terminal bash", text: terminalText(terminal(), 1), language: "" } };
        const changes = await workingTreeChanges([workspace], true);
        return changes.ok ? { ok: true, attachment: { kind: "changes", label: "Changes", text: changes.text, language: "diff" } } : { ok: false, problem: changes.problem };
      },
      symbols: async () => [],
    };
    harness = await startPanelHostHarness({
      otherRelays: [{ name: "second" }],
      extraSecrets: [environmentKey],
      workspaceContext,
      files: new WorkspaceFiles({ folders: () => [workspace], excludePatterns: () => [] }),
      slash: { instructions: panelAssembly(() => ({ rulesFolders: [rules], redact: (text) => removeKeys(text, allKeys()) })) },
    });
    keys = { active: harness.emulator.defaultKey, other: harness.otherRelays.get("second")!.defaultKey };
    const allKeys = () => [keys.active, keys.other, environmentKey];
    await writeFile(path.join(workspace, "config.ts"), `export const apiKey = "${keys.active}";\n`);
    await writeFile(path.join(workspace, "notes.txt"), `The environment key is ${environmentKey}, keep it secret.\n`);
    await writeFile(path.join(workspace, "AGENTS.md"), `Use the key ${keys.active} and ${environmentKey} for the relay.\n`);
    const rules = await readRulesFolder(workspace, "app");

    harness.controller.handle({ type: "ready" });
    harness.controller.handle({ type: "attachContext", source: "terminal" });
    harness.controller.handle({ type: "attachContext", source: "changes" });
    harness.controller.handle({ type: "attachPath", path: "notes.txt" });
    const attached = await harness.waitFor((state) => state.attachments.length === 3, "three chips");
    assert.deepEqual(
      attached.attachments.map((attachment) => [attachment.kind, attachment.redacted]),
      [["terminal", true], ["changes", true], ["file", true]],
      "each chip says a key was removed",
    );
    assert.equal(attached.rules?.files[0]?.redacted, true, "and so does the rules file's row in the Rules chip");
    const preview = instructionsDocument(harness.controller.nextRequest.current().next);
    assert.match(preview, /A relay key was found in AGENTS\.md and replaced with \[REDACTED\]/);

    harness.controller.handle({ type: "send", text: `Why does ${keys.other} fail?` });
    await harness.waitFor((state) => !state.busy && state.turns.length === 1 && state.turns[0]!.outcome !== "in_progress", "the answer");

    const sent = harness.emulator.received.filter((request) => request.method === "POST").map((request) => request.rawBody);
    assert.ok(sent.length > 0);
    assert.ok(sent[0]!.includes(REDACTED), "the redacted texts were sent");
    assert.ok(sent[0]!.includes("DONE") && sent[0]!.includes("config.ts") && sent[0]!.includes("keep it secret"), "with the rest of them");
    const stored = await Promise.all((await filesUnder(harness.folder)).map((file) => readFile(file, "utf8")));
    assert.ok(stored.some((text) => text.includes("keep it secret")), "the history holds the turn");
    for (const [name, key] of Object.entries({ active: keys.active, other: keys.other, environment: environmentKey })) {
      assert.equal(sent.some((body) => body.includes(key)), false, `the ${name} key was sent`);
      assert.equal(stored.some((text) => text.includes(key)), false, `the ${name} key was written to the history`);
    }
  });
});

describe("the relay key never goes into /commit's staged diff (Node, relay emulator)", function () {
  this.timeout(60_000);
  let workspace: string;
  let harness: PanelHostHarness;
  afterEach(async () => {
    await harness?.close();
    await rm(workspace, { recursive: true, force: true });
  });

  it("sends the staged changes with the key taken out", async () => {
    workspace = await realpath(await mkdtemp(path.join(tmpdir(), "relay-key-commit-")));
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: workspace, stdio: "pipe" }).toString();
    git("init", "-q");
    const commands = slashCommands([]);
    const written: string[] = [];
    harness = await startPanelHostHarness({
      slash: {
        slashCommands: { commands: () => commands, fresh: async () => commands, listen: () => undefined },
        // The editor's part, as the Git extension gives it: the staged diff of the repository.
        commitMessages: { staged: async () => ({ ok: true, repository: "repo", diff: git("diff", "--cached") }), write: async (_repository, message) => void written.push(message) },
      },
    });
    const key = harness.emulator.defaultKey;
    await writeFile(path.join(workspace, ".env"), `RELAY_CHAT_API_KEY=${key}\n`);
    git("add", ".env");
    harness.controller.handle({ type: "send", text: "/commit" });
    await harness.waitFor((state) => !state.busy && state.turns.length === 1 && state.turns[0]!.outcome !== "in_progress", "the answer");
    const sent = harness.emulator.received.find((request) => request.method === "POST")?.rawBody ?? "";
    assert.ok(sent.includes(`RELAY_CHAT_API_KEY=${REDACTED}`), sent.slice(0, 400));
    assert.equal(sent.includes(key), false);
  });
});

describe("the history's last guard: no stored relay key is written", () => {
  let folder: string;
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("writes a conversation that holds a key (typed, quoted by a model) with the key taken out", async () => {
    folder = await mkdtemp(path.join(tmpdir(), "relay-key-history-"));
    const key = "sk-history-key-0123456789abcdef";
    const store = new HistoryStore(redactingStorage(new FileStorage(folder), (text) => removeKeys(text, [key])));
    const now = Date.now();
    const conversation = createConversation("conv_keyguard", "echo", now);
    conversation.title = `About ${key}`;
    conversation.turns.push({ id: "turn_1", parentId: null, userText: `my key is ${key}`, createdAt: now, requests: [], toolCalls: [], outcome: { kind: "completed" }, notice: null });
    conversation.activeTurnId = "turn_1";
    await store.save(conversation);
    const texts = await Promise.all((await filesUnder(folder)).map((file) => readFile(file, "utf8")));
    assert.ok(texts.some((text) => text.includes(`my key is ${REDACTED}`)));
    assert.equal(texts.some((text) => text.includes(key)), false);
    store.dispose();
  });
});
