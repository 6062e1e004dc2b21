import assert from "node:assert/strict";
import type { TurnResult } from "../../src/chat/chatSession";
import type { RequestInstructions } from "../../src/chat/chatSettings";
import { conversationToJson } from "../../src/chat/exportJson";
import { HistoryStore } from "../../src/chat/historyStore";
import { ImageStore } from "../../src/chat/imageStore";
import { requestSentFor } from "../../src/chat/requestSent";
import { curlForReceipt } from "../../src/panel/editor/curlCommand";
import type { ChatHarness } from "../fixtures/chat/chatHarness";
import { startChatHarness, weatherTools } from "../fixtures/chat/chatHarness";

// "Copy as curl" repeats a request with the instructions it carried (issue 29 leftover): in the `instructions`
// field, as the developer message for a relay that drops the field, and as the system message over Chat
// Completions. The conversation keeps their text once, however many requests sent it; the key is never in it.

const instructions = (text: string): RequestInstructions => ({ text, tokens: 4, sources: ["relayChat.instructions"], hash: `hash-${text.length}` });
const finished = (result: TurnResult) => (result.status === "finished" ? result.turn : assert.fail(result.status));
/** The JSON body of a copied curl command (between its here-document markers). */
const curlBody = (command: string) => JSON.parse(command.split("<<'RELAY_CHAT_REQUEST_BODY'\n")[1]!.split("\nRELAY_CHAT_REQUEST_BODY")[0]!) as Record<string, unknown>;

describe("Copy as curl: the instructions the request carried", () => {
  let harness: ChatHarness;
  afterEach(async () => harness?.close());

  const posted = () => harness.emulator.received.filter((request) => request.method === "POST");
  /** The conversation as a new window reads it from disk. */
  const reopened = async (id: string) => {
    const opened = await new HistoryStore(harness.storage).open(id);
    return opened.ok ? opened.conversation : assert.fail("the conversation did not open");
  };

  it("puts them in the instructions field, byte for byte as sent, for every request, after a reload, with the text kept once", async () => {
    harness = await startChatHarness();
    const text = "Answer tersely, and name the file you read.";
    const session = harness.newSession({ settings: { model: "tools", instructions: instructions(text) }, tools: weatherTools("approve") });
    const first = finished(await session.send("weather?"));
    const second = finished(await session.send("and tomorrow?"));
    const conversation = await reopened(session.conversation.id);
    const requests = [first, second].flatMap((turn) => turn.requests.map((_request, index) => ({ turnId: turn.id, index })));
    assert.ok(requests.length >= 3, "a tool round and a second turn");
    const raw = posted().map((request) => request.rawBody);
    assert.equal(raw.length, requests.length);
    for (const [at, { turnId, index }] of requests.entries()) {
      assert.equal(JSON.stringify(requestSentFor(conversation, turnId, index)?.body), raw[at], `request ${at}`);
      const command = await curlForReceipt(`${harness.emulator.baseUrl}/v1`, conversation, turnId, index, new ImageStore(harness.storage));
      assert.ok(command);
      assert.equal(curlBody(command).instructions, text);
      assert.equal(command.includes(harness.emulator.defaultKey), false, "the key is never in it");
    }
    const keeping = conversation.turns.flatMap((turn) => turn.requests).filter((request) => request.instructions?.text !== undefined);
    assert.deepEqual(keeping.map((request) => request.instructions?.text), [text], "the text is kept once, not with every request");
    assert.equal(conversationToJson(conversation).includes(text), false, "an export to share leaves the text out (sources and hash stay)");
  });

  it("puts them first in the input as the developer message when the relay takes them that way", async () => {
    harness = await startChatHarness();
    const text = "Answer as a developer message says.";
    const session = harness.newSession({ settings: { model: "echo", instructions: instructions(text), instructionsAs: "developer" } });
    const turn = finished(await session.send("hello"));
    const command = await curlForReceipt(`${harness.emulator.baseUrl}/v1`, await reopened(session.conversation.id), turn.id, 0, new ImageStore(harness.storage));
    assert.ok(command);
    const body = curlBody(command);
    assert.equal(body.instructions, undefined);
    assert.deepEqual((body.input as unknown[])[0], { type: "message", role: "developer", content: text });
    assert.deepEqual(body, JSON.parse(posted()[0]!.rawBody));
  });

  it("puts them in the system message over Chat Completions", async () => {
    harness = await startChatHarness({ profile: "split" });
    const text = "Answer over Chat Completions, tersely.";
    const session = harness.newSession({ settings: { model: "claude-chat", protocol: "chat", instructions: instructions(text) } });
    const turn = finished(await session.send("hello"));
    const command = await curlForReceipt(`${harness.emulator.baseUrl}/v1`, await reopened(session.conversation.id), turn.id, 0, new ImageStore(harness.storage));
    assert.ok(command);
    assert.match(command, /\/v1\/chat\/completions'/);
    const sent = JSON.parse(posted()[0]!.rawBody) as { messages: unknown[] };
    assert.deepEqual((curlBody(command).messages as unknown[])[0], { role: "system", content: text });
    assert.deepEqual(curlBody(command).messages, sent.messages);
    assert.equal(command.includes(harness.emulator.defaultKey), false);
  });
});
