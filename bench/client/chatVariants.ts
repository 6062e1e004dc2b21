import { createParser } from "eventsource-parser";
import { Agent, fetch as undiciFetch } from "undici";
import { outputTextOf } from "../../src/relay/accumulate";
import { RelayClient } from "../../src/relay/client";
import { buildChatBenchStream } from "./chatBenchStream";

// The Chat Completions path of bench:client: the Relay Chat client reading the chat stream into the same snapshot
// (chunks translated to Responses events, accumulated), against its own floor (undici fetch + eventsource-parser +
// JSON.parse of each chunk), per chunk received.

const { chunkCount, text: expectedText } = buildChatBenchStream();

export const CHAT_CHUNK_COUNT = chunkCount;

export const chatVariants = [
  {
    name: "chatClient",
    events: chunkCount,
    async run(baseUrl: string): Promise<number> {
      const client = new RelayClient({ baseUrl, apiKey: "bench-key", dispatcher: new Agent() });
      const result = await client.send({ model: "bench-model", input: [{ role: "user", content: "go" }], stream: true, store: false }, { protocol: "chat" });
      await client.close();
      if (result.outcome.kind !== "completed" || outputTextOf(result.snapshot.output) !== expectedText) throw new Error(`chatClient: ${result.outcome.kind}`);
      return chunkCount;
    },
  },
  {
    name: "chatFloor",
    events: chunkCount,
    async run(baseUrl: string): Promise<number> {
      const dispatcher = new Agent();
      const response = await undiciFetch(`${baseUrl}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: "Bearer bench-key", "content-type": "application/json" },
        body: JSON.stringify({ model: "bench-model", messages: [{ role: "user", content: "go" }], stream: true, stream_options: { include_usage: true } }),
        dispatcher,
      });
      let events = 0;
      const parser = createParser({
        onEvent(message) {
          if (message.data !== "[DONE]") JSON.parse(message.data);
          events += 1;
        },
      });
      const decoder = new TextDecoder();
      for await (const chunk of response.body!) parser.feed(decoder.decode(chunk, { stream: true }));
      await dispatcher.close();
      return events;
    },
  },
];
