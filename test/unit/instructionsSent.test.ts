import * as assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { TurnResult } from "../../src/chat/chatSession";
import type { RequestInstructions } from "../../src/chat/chatSettings";
import { answerTextOf } from "../../src/chat/answerText";
import { assembleInstructions, sentSources } from "../../src/instructions/assembleInstructions";
import { chooseRules } from "../../src/instructions/projectRules";
import { readRulesFolder } from "../../src/instructions/rulesOnDisk";
import type { JsonObject } from "../../src/relay/types";
import type { ChatHarness } from "../fixtures/chat/chatHarness";
import { startChatHarness } from "../fixtures/chat/chatHarness";

// What the model is told goes with every request as the Responses `instructions` field: the emulator, over
// loopback, records the bodies. The instruction is the current request's, never stored into the history;
// the record and the ledger keep its sources and hash, not its text.

const environment = { os: "Linux", shell: "/bin/bash", workspaceFolders: ["app"], date: "2026-11-26", locale: "en", tools: [] };

describe("Instructions: sent with every request", () => {
  let harness: ChatHarness;
  let root: string;
  beforeEach(async () => {
    harness = await startChatHarness();
    root = await mkdtemp(join(tmpdir(), "relay-rules-sent-"));
  });
  afterEach(async () => {
    await harness.close();
    await rm(root, { recursive: true, force: true });
  });

  async function write(path: string, text: string): Promise<void> {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }

  async function instructionsFor(workingOn: string[]): Promise<RequestInstructions> {
    const folder = await readRulesFolder(root, "app");
    const assembled = assembleInstructions({ environment, personInstructions: "Answer in one line.", rules: chooseRules([folder], { workingOn: new Map([["app", workingOn]]) }) });
    return { text: assembled.text, tokens: assembled.tokens, sources: sentSources(assembled), hash: assembled.hash };
  }

  const finished = (result: TurnResult) => (result.status === "finished" ? result.turn : assert.fail(result.status));

  it("sends the base instruction, the person's and the rules that apply, and each request its own", async () => {
    await write("AGENTS.md", "Root rule: run npm test.");
    await write("src/web/AGENTS.md", "Web rule: use tabs.");
    await write("docs/AGENTS.md", "Docs rule: never sent for a .ts file.");
    await write(".github/instructions/ts.instructions.md", '---\napplyTo: "**/*.ts"\n---\nTS rule: strict types.');
    await write(".github/instructions/py.instructions.md", '---\napplyTo: "**/*.py"\n---\nPY rule: never sent.');
    const first = await instructionsFor(["src/web/view.ts"]);
    const session = harness.newSession({ settings: { model: "demo", instructions: first } });
    const answered = finished(await session.send("What are my rules?"));
    await write("CLAUDE.md", "Claude rule, added later.");
    const second = await instructionsFor([]);
    session.settings = { ...session.settings, instructions: second };
    finished(await session.send("and now?"));

    const [firstBody, secondBody] = harness.postedBodies();
    const told = String(firstBody.instructions);
    for (const expected of ["You are a coding assistant in Relay Chat", "Answer in one line.", "Root rule", "Web rule", "TS rule"]) assert.ok(told.includes(expected), expected);
    for (const unexpected of ["Docs rule", "PY rule", "Claude rule"]) assert.equal(told.includes(unexpected), false, unexpected);
    assert.ok(told.indexOf("Root rule") < told.indexOf("Web rule") && told.indexOf("Web rule") < told.indexOf("TS rule"), "the documented order");
    assert.equal(secondBody.instructions, second.text, "the second request sends the instruction of its own time");
    assert.ok(String(secondBody.instructions).includes("Claude rule"));
    assert.equal(JSON.stringify(secondBody.input).includes("Root rule"), false, "the instruction is never in the history");

    assert.match(answerTextOf(answered), /`AGENTS.md`[\s\S]*`src\/web\/AGENTS.md`[\s\S]*`\.github\/instructions\/ts\.instructions\.md`/);
    assert.match(answerTextOf(answered), /the Relay Chat base instruction/);
    // The conversation keeps the text (for Copy as curl) on the first request that sent it; the ledger never does.
    assert.deepEqual(answered.requests[0].instructions, { sources: first.sources, hash: first.hash, text: first.text });
    assert.deepEqual(first.sources, ["Relay Chat base instruction v2", "relayChat.instructions", "AGENTS.md", "src/web/AGENTS.md", ".github/instructions/ts.instructions.md"]);
    const rows = (await harness.ledger.rows()).filter((row) => row.outcome !== "pending");
    assert.deepEqual(rows.map((row) => [row.instructionSources, row.instructionsHash]), [[first.sources, first.hash], [second.sources, second.hash]]);
    assert.equal(JSON.stringify(await harness.ledger.rows()).includes("Root rule"), false, "the ledger never holds the text");
  });

  it("counts the instructions in the input the relay reports and in the spend estimate", async () => {
    const session = harness.newSession({ settings: { model: "echo" } });
    finished(await session.send("hi"));
    const withInstructions = harness.newSession({ settings: { model: "echo", instructions: await instructionsFor([]), expensiveSendThresholdTokens: 60 } });
    const refused = await withInstructions.send("hi");
    assert.equal(refused.status, "needs_confirmation", "the instruction's tokens push a tiny message over the threshold");
    const result = finished(await withInstructions.send("hi", { confirmed: true }));
    const body = harness.postedBodies()[1] as JsonObject;
    assert.equal(typeof body.instructions, "string");
    const without = session.conversation.turns[0].requests[0].usage?.input_tokens ?? 0;
    const withTokens = result.requests[0].usage?.input_tokens ?? 0;
    assert.ok(withTokens > without + 100, `${withTokens} > ${without} + 100`);
  });

  it("sends no instructions field when there are none", async () => {
    const session = harness.newSession({ settings: { model: "demo" } });
    const answered = finished(await session.send("What are my rules?"));
    assert.equal("instructions" in harness.postedBodies()[0], false);
    assert.match(answerTextOf(answered), /received no instructions/);
    assert.equal(answered.requests[0].instructions, undefined);
  });
});
