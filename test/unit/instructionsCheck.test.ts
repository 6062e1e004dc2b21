import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { englishText } from "../../src/chat/outcomeLabel";
import { checkConnection } from "../../src/relay/connectionCheck";
import { connectionReportMarkdown } from "../../src/relay/connectionReport";
import { checkInstructions } from "../../src/relay/instructionsCheck";
import type { RelayEmulator } from "../emulator/server";
import { emulatorWithClient } from "../support/emulatorClient";

// The check-up learns whether the relay passes the Responses `instructions` field on to the model: one tiny
// request tells the model to answer with a word; where the answer lacks it, the same instruction goes as a
// developer message. Against the emulator over loopback: a relay that passes the field (openai, translated),
// one that drops it on the way to Chat Completions (drops-instructions), and one whose model follows neither.

interface Posted {
  instructions?: string;
  input: Array<{ role?: string; content?: unknown }>;
}

function posted(emulator: RelayEmulator, from: number): Posted[] {
  return emulator.received
    .slice(from)
    .filter((request) => request.method === "POST")
    .map((request) => request.body as Posted);
}

for (const profile of ["openai", "translated"] as const) {
  describe(`instructions check: the ${profile} profile passes the field on`, () => {
    const relay = emulatorWithClient({ profile });

    it("finds the instructions field honoured with one request (and sends no developer message)", async () => {
      const from = relay.emulator().received.length;
      const finding = await checkInstructions(relay.client(), "reasoning");
      assert.equal(finding.honoured, "instructions");
      assert.equal(finding.steps[0].name, "Instructions");
      assert.equal(finding.steps[0].status, "ok");
      const bodies = posted(relay.emulator(), from);
      assert.equal(bodies.length, 1);
      assert.match(bodies[0].instructions ?? "", /answer with the single word PERSIMMON/);
      assert.equal(bodies[0].input.some((item) => item.role === "developer"), false);
    });
  });
}

describe("instructions check: a gateway that drops the instructions field", () => {
  const relay = emulatorWithClient({ profile: "drops-instructions" });

  it("finds that a developer message works, and says how to set it for the relay", async () => {
    const from = relay.emulator().received.length;
    const finding = await checkInstructions(relay.client(), "reasoning");
    assert.equal(finding.honoured, "developer");
    assert.equal(finding.steps[0].status, "warning");
    assert.match(finding.steps[0].detail, /drops the instructions field.*"instructionsAs": "developer"/);
    const [asField, asMessage] = posted(relay.emulator(), from);
    assert.ok(asField.instructions, "first as the field");
    assert.equal(asMessage.instructions, undefined);
    assert.equal(asMessage.input[0].role, "developer", "then as a developer message first in the input");
  });

  it("appears in the check-up's report as its own localized step", async () => {
    const report = await checkConnection(relay.client(), "echo");
    report.steps.push(...(await checkInstructions(relay.client(), "echo")).steps);
    const markdown = connectionReportMarkdown(report, { relay: "r", model: "echo", keySource: "k", checkedAt: new Date(0) }, (english, ...args) =>
      english === "Instructions" ? "指令" : englishText(english, ...args),
    );
    assert.match(markdown, /\| 指令 \| \*\*warning\*\* \| The relay drops the instructions field/);
  });
});

describe("instructions check: the model follows neither way", () => {
  const relay = emulatorWithClient();

  it("says so, remembers nothing, and does not call the relay broken", async () => {
    const hello = { id: "resp_hello", object: "response", status: "completed", model: "echo", output: [{ type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Hello there!", annotations: [] }] }], usage: { input_tokens: 5, output_tokens: 2 } };
    relay.emulator().queueJsonBody(hello);
    relay.emulator().queueJsonBody(hello);
    const finding = await checkInstructions(relay.client(), "reasoning");
    assert.equal(finding.honoured, null);
    assert.equal(finding.steps[0].status, "warning");
    assert.match(finding.steps[0].detail, /neither as the instructions field nor as a developer message: it answered "Hello there!"/);
  });

  it("a failed request is not a finding", async () => {
    relay.emulator().queueFault({ kind: "status", status: 500, message: "upstream down" });
    const finding = await checkInstructions(relay.client(), "reasoning");
    assert.equal(finding.honoured, null);
    assert.match(finding.steps[0].detail, /Not checked: the request failed \(http_error 500\)/);
  });
});

describe("instructions check: the reasoning efforts the relay names", () => {
  const relay = emulatorWithClient();

  it("reports the efforts a model takes when the relay's refusal lists them, and none for a model without reasoning", async () => {
    const thinker = await checkInstructions(relay.client(), "thinker");
    assert.equal(thinker.honoured, "instructions");
    assert.deepEqual(thinker.steps[1], { name: "Reasoning effort", status: "ok", detail: "The relay says this model takes the reasoning efforts low, medium, high: set one in Model settings…." });
    const echo = await checkInstructions(relay.client(), "echo");
    assert.equal(echo.honoured, "instructions");
    assert.match(echo.steps[1]?.detail ?? "", /takes no reasoning effort/);
    const reasoning = await checkInstructions(relay.client(), "reasoning");
    assert.equal(reasoning.steps.length, 1, "nothing said, nothing reported");
  });
});

describe("instructions check: relay-chat check", function () {
  this.timeout(60_000);
  const relay = emulatorWithClient({ profile: "drops-instructions" });

  it("prints the Instructions step after the connection steps", async () => {
    const cliEntry = path.resolve(__dirname, "../../src/cli/main.ts");
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, ["--require", require.resolve("tsx/cjs"), cliEntry, "check", "--model", "echo"], {
        env: { PATH: process.env.PATH, RELAY_CHAT_API_KEY: relay.emulator().defaultKey, RELAY_CHAT_BASE_URL: relay.emulator().baseUrl },
      });
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.on("close", (code) => resolve({ code, stdout }));
    });
    assert.equal(result.code, 0, result.stdout);
    assert.match(result.stdout, /one or two tiny requests/);
    assert.match(result.stdout, /warn {2}Instructions: The relay drops the instructions field/);
  });
});
