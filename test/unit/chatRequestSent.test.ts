import assert from "node:assert/strict";
import type { TurnResult } from "../../src/chat/chatSession";
import { parseConversation, serializeConversation } from "../../src/chat/conversationSchema";
import { requestSentFor } from "../../src/chat/requestSent";
import { curlCommandFor } from "../../src/panel/editor/curlCommand";
import { RelayClient } from "../../src/relay/client";
import type { ChatHarness } from "../fixtures/chat/chatHarness";
import { startChatHarness, weatherTools } from "../fixtures/chat/chatHarness";

// "Copy as curl" repeats exactly the request that was sent for a receipt (issue 12): `requestSentFor`
// rebuilds it from what each request recorded, and must equal the bytes the relay received, for every
// request of a conversation, whatever happened after it (later turns, another tool set, a reload).

const LONG_MESSAGE = Array.from({ length: 40 }, (_, index) => `word${index}`).join(" ");
const HEADERS = { "x-portkey-provider": "openai" };

describe("requestSentFor: the request sent for a receipt", () => {
  let harness: ChatHarness;
  beforeEach(async () => {
    harness = await startChatHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  it("equals, byte for byte, every request the relay received, with the tools offered then and the extra headers", async () => {
    const client = new RelayClient({ baseUrl: harness.emulator.baseUrl, apiKey: harness.emulator.defaultKey, extraHeaders: HEADERS });
    const tools = weatherTools("approve");
    const session = harness.newSession({ client, tools, settings: { model: "tools" } });
    const finished = (result: TurnResult) => (result.status === "finished" ? result.turn : assert.fail(result.status));
    finished(await session.send("weather?"));
    session.settings = { ...session.settings, model: "reasoning" };
    finished(await session.send("think about it"));
    finished(await session.send("and again"));
    // The tools change: earlier requests must still show the tools they were offered.
    tools.availability = () => ({ trusted: true, disabledToolNames: new Set(["get_time"]) });
    session.settings = { ...session.settings, model: "echo", maxOutputTokens: 16 };
    const incomplete = finished(await session.send(LONG_MESSAGE));
    session.settings = { ...session.settings, maxOutputTokens: null };
    finished(await session.continueTurn(incomplete.id));
    harness.emulator.queueFault({ kind: "failed" });
    finished(await session.send("this fails"));
    await client.close();

    const raw = harness.emulator.received.filter((request) => request.method === "POST").map((request) => request.rawBody);
    // Reloaded from disk, as the panel has it after a restart.
    const reloaded = parseConversation(serializeConversation(session.conversation));
    assert.ok(reloaded.ok);
    const sent = reloaded.conversation.turns.flatMap((turn) => turn.requests.map((_request, index) => requestSentFor(reloaded.conversation, turn.id, index)));
    assert.equal(sent.length, raw.length);
    sent.forEach((request, index) => {
      assert.ok(request);
      assert.equal(JSON.stringify(request.body), raw[index], `request ${index}`);
      assert.deepEqual(request.extraHeaders, HEADERS);
    });
    assert.equal((sent[0]?.body.tools ?? []).length, 2);
    assert.equal((sent[sent.length - 1]?.body.tools ?? []).length, 1);
    assert.deepEqual(sent[3]?.body.include, ["reasoning.encrypted_content"]);
    assert.equal(requestSentFor(reloaded.conversation, "turn_missing", 0), null);
    assert.equal(requestSentFor(reloaded.conversation, incomplete.id, 5), null);
    // Tool sets are stored once, however many requests offered them.
    assert.equal(Object.keys(reloaded.conversation.toolSets ?? {}).length, 2);

    const curl = curlCommandFor(`${harness.emulator.baseUrl}/v1/responses`, sent[1]!.body, sent[1]!.extraHeaders);
    assert.match(curl, /-H 'x-portkey-provider: openai'/);
    assert.ok(curl.includes('"type": "function_call_output"'), "the follow-up's tool result is in it");
    assert.equal(curl.includes(harness.emulator.defaultKey), false);
  });
});
