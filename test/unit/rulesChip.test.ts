import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { FileStorage } from "../../src/chat/fileStorage";
import { HistoryStore } from "../../src/chat/historyStore";
import { assembleInstructions, RULE_FILE_LIMIT_CHARS } from "../../src/instructions/assembleInstructions";
import { chooseRules } from "../../src/instructions/projectRules";
import type { RulesFolder } from "../../src/instructions/ruleFile";
import { ruleFileId, rulesOffOf, rulesView } from "../../src/panel/context/rulesChip";
import { sampleConversation, sampleConversationId } from "../fixtures/chat/sampleConversations";

// The Rules chip lists the same files, tokens and cuts as "What the model is told" (one assembly), keeps a
// switched-off file listed so it can be switched on again, and the choice is saved with the conversation.

const environment = { os: "Linux 6", shell: "/bin/bash", workspaceFolders: ["app"], date: "2026-11-26", locale: "en", tools: ["read_file"] };
const folder: RulesFolder = {
  name: "app",
  files: new Map([
    ["AGENTS.md", "Use tabs."],
    ["src/AGENTS.md", "Tests beside the code."],
    [".github/instructions/ts.instructions.md", `---\napplyTo: "**/*.ts"\n---\n${"x".repeat(RULE_FILE_LIMIT_CHARS + 100)}`],
    [".github/instructions/py.instructions.md", `---\napplyTo: "**/*.py"\n---\nPython rules.`],
  ]),
};
const workingOn = new Map([["app", ["src/main.ts"]]]);

describe("the Rules chip", () => {
  it("lists the files that apply, each with what it adds, and the switched-off ones as off", () => {
    const off = new Set(["app/src/AGENTS.md"]);
    const applicable = chooseRules([folder], { workingOn });
    const assembled = assembleInstructions({ environment, rules: chooseRules([folder], { workingOn, disabledFiles: off }) });
    const view = rulesView(applicable, assembled, off, false, false);
    assert.ok(view);
    assert.deepEqual(view.files.map((file) => [file.id, file.source, file.off, file.cut?.keptChars ?? null]), [
      ["app/AGENTS.md", "AGENTS.md", false, null],
      ["app/src/AGENTS.md", "src/AGENTS.md", true, null],
      ["app/.github/instructions/ts.instructions.md", ".github/instructions/ts.instructions.md", false, RULE_FILE_LIMIT_CHARS],
    ], "the .py instructions do not apply to a .ts file");
    assert.equal(view.instructionTokens, assembled.tokens);
    const agents = assembled.parts.find((part) => part.source === "AGENTS.md");
    assert.equal(view.files[0].tokens, agents?.tokens);
    assert.equal(view.files[1].tokens, 0, "off: adds nothing");
    assert.doesNotMatch(assembled.text, /Tests beside the code/, "off: not sent");
  });

  it("names files with their folder when several are open, and shows nothing without rules in a trusted workspace", () => {
    const applicable = chooseRules([folder], { workingOn });
    const view = rulesView(applicable, assembleInstructions({ environment, rules: applicable, multiRoot: true }), new Set(), true, false);
    assert.equal(view?.files[0].source, "app/AGENTS.md");
    assert.ok((view?.files[0].tokens ?? 0) > 0);
    const empty = assembleInstructions({ environment });
    assert.equal(rulesView([], empty, new Set(), false, false), null);
    assert.deepEqual(rulesView([], empty, new Set(), false, true), { files: [], instructionTokens: empty.tokens, untrusted: true });
    assert.equal(ruleFileId({ folder: "app", path: "AGENTS.md" }), "app/AGENTS.md");
  });

  it("reads a damaged switched-off list as none", () => {
    assert.deepEqual(rulesOffOf(null), []);
    assert.deepEqual(rulesOffOf({ rulesOff: ["a/AGENTS.md", 3, null] as unknown as string[] }), ["a/AGENTS.md"]);
    assert.deepEqual(rulesOffOf({ rulesOff: "a/AGENTS.md" as unknown as string[] }), []);
  });

  describe("saved with the conversation", () => {
    let directory: string;
    beforeEach(async () => {
      directory = await mkdtemp(path.join(tmpdir(), "relay-chat-rules-off-"));
    });
    afterEach(async () => {
      await rm(directory, { recursive: true, force: true });
    });

    it("keeps the switched-off files across a reload, and their switching back on", async () => {
      const store = new HistoryStore(new FileStorage(directory), { now: () => 1_800_000_000_000 });
      const conversation = sampleConversation(1, 2);
      await store.save(conversation);
      conversation.rulesOff = ["app/AGENTS.md"];
      await store.save(conversation, []);
      const reopened = await new HistoryStore(new FileStorage(directory)).open(sampleConversationId(1));
      assert.ok(reopened.ok);
      assert.deepEqual(reopened.conversation.rulesOff, ["app/AGENTS.md"]);

      conversation.rulesOff = [];
      await store.save(conversation, []);
      const again = await new HistoryStore(new FileStorage(directory)).open(sampleConversationId(1));
      assert.ok(again.ok);
      assert.deepEqual(again.conversation.rulesOff, [], "switched back on: the journal says so");
    });
  });
});
