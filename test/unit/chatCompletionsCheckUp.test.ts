import assert from "node:assert/strict";
import { checkConnection } from "../../src/relay/connectionCheck";
import type { ConnectionReport } from "../../src/relay/connectionCheck";
import { connectionReportLines } from "../../src/relay/connectionReport";
import { CHAT_ONLY_MODELS } from "../emulator/chatOnlyModels";
import type { RelayEmulator } from "../emulator/server";
import { emulatorWithClient } from "../support/emulatorClient";

// The check-up finds which model needs Chat Completions from the Responses request's refusal and one more small
// request over Chat Completions, never from the relay's model list. It only reports; the person confirms.

const text = (report: ConnectionReport) => connectionReportLines(report).join("\n");
const postsFrom = (emulator: RelayEmulator, from: number) => emulator.received.slice(from).filter((request) => request.method === "POST").map((request) => request.path);

describe("check-up: which interface a model needs", () => {
  describe("a relay whose list says nothing of endpoints (one-api)", () => {
    const relay = emulatorWithClient({ profile: "split", listsEndpointTypes: false });

    for (const [model, { refusal }] of Object.entries(CHAT_ONLY_MODELS)) {
      it(`${model} (${refusal}): the Responses refusal, then the same small request once over Chat Completions, which works`, async () => {
        const from = relay.emulator().received.length;
        const report = await checkConnection(relay.client(), model);
        assert.equal(report.protocolFinding, "chat", text(report));
        assert.equal(report.steps.find((step) => step.name === "Chat Completions")?.status, "ok", text(report));
        assert.deepEqual(postsFrom(relay.emulator(), from), ["/v1/responses", "/v1/chat/completions"], "one request each, nothing more");
        assert.match(text(report), /needs Chat Completions/);
        assert.equal(report.steps.find((step) => step.name === "Streamed request")?.status, "warning", "refused over Responses, usable over Chat Completions: not a failed relay");
        assert.equal(report.ok, true, text(report));
      });
    }

    it("a model with Responses is not offered the switch, and no Chat Completions request is sent", async () => {
      const from = relay.emulator().received.length;
      const report = await checkConnection(relay.client(), "echo");
      assert.equal(report.ok, true, text(report));
      assert.equal(report.protocolFinding, null);
      assert.ok(!postsFrom(relay.emulator(), from).includes("/v1/chat/completions"));
    });

    it("a model set to chat is checked over Chat Completions from the start, every step", async () => {
      const from = relay.emulator().received.length;
      const report = await checkConnection(relay.client(), "claude-chat", { protocol: "chat" });
      assert.equal(report.ok, true, text(report));
      assert.equal(report.protocolFinding, null, "nothing to confirm: it is already set");
      assert.deepEqual([...new Set(postsFrom(relay.emulator(), from))], ["/v1/chat/completions"]);
      assert.equal(report.steps.find((step) => step.name === "Function calls")?.status, "ok", text(report));
    });
  });

  describe("a new-api relay that lists supported_endpoint_types", () => {
    // As new-api lists them (common/endpoint_type.go): ["openai"] for every model of a default channel, the chat-only
    // ones included; ["openai-response"] for a Responses-only model; an Anthropic channel's own type plus "openai".
    const relay = emulatorWithClient({ profile: "split", endpointTypes: { tools: ["openai-response"], reasoning: ["anthropic", "openai"] } });

    for (const model of ["echo", "tools", "reasoning"]) {
      it(`${model}: the list does not move it, the check goes over Responses only and finds nothing to switch`, async () => {
        const from = relay.emulator().received.length;
        const report = await checkConnection(relay.client(), model);
        assert.equal(report.ok, true, text(report));
        assert.equal(report.protocolFinding, null);
        assert.deepEqual([...new Set(postsFrom(relay.emulator(), from))], ["/v1/responses"]);
      });
    }

    it('a chat-only model listed ["openai"] like the rest is found by its refusal, then one request over Chat Completions', async () => {
      const from = relay.emulator().received.length;
      const report = await checkConnection(relay.client(), "deepseek-chat");
      assert.equal(report.protocolFinding, "chat", text(report));
      assert.deepEqual(postsFrom(relay.emulator(), from), ["/v1/responses", "/v1/chat/completions"]);
      assert.equal(report.steps.some((step) => step.name === "Interface"), false, "no step reads the list as a finding");
    });
  });
});
