import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { startRelayEmulator } from "../emulator/server";
import { validateResponseResource, validateStreamingEvent } from "../support/openResponsesSchema";
import type { EmulatorOptions, RelayEmulator } from "../emulator/server";
import { referenceDirectory } from "../support/fixturePaths";

const REQUEST_ID_HEADER = "x-service-request-id";
const referenceStreamsDirectory = path.join(referenceDirectory, "streams");

interface SseFrame {
  event: string | null;
  data: Record<string, unknown>;
}

interface ErrorEnvelope {
  error: { message: string; type: string; code: string | null; param?: string | null };
}

interface ResponseBody {
  id: string;
  status: string;
  output: Array<Record<string, unknown>>;
  usage: { input_tokens: number; output_tokens: number; total_tokens: number; input_tokens_details: { cached_tokens: number }; output_tokens_details: { reasoning_tokens: number } } | null;
  incomplete_details: { reason: string } | null;
  error: { code: string; message: string } | null;
}

function userMessage(text: string): { role: "user"; content: string } {
  return { role: "user", content: text };
}

function postResponses(emulator: RelayEmulator, body: unknown, options: { key?: string | null; signal?: AbortSignal; rawBody?: string } = {}): Promise<Response> {
  const key = options.key === undefined ? emulator.defaultKey : options.key;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  return fetch(`${emulator.baseUrl}/v1/responses`, { method: "POST", headers, body: options.rawBody ?? JSON.stringify(body), signal: options.signal });
}

function getModels(emulator: RelayEmulator, key: string | null = emulator.defaultKey): Promise<Response> {
  return fetch(`${emulator.baseUrl}/v1/models`, { headers: key === null ? {} : { authorization: `Bearer ${key}` } });
}

/** Test oracle: LF-framed SSE as the emulator writes it. */
function parseSse(text: string): SseFrame[] {
  return text
    .split("\n\n")
    .filter((block) => block.trim().length > 0)
    .map((block) => {
      let event: string | null = null;
      let data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) event = line.slice("event: ".length);
        if (line.startsWith("data: ")) data += line.slice("data: ".length);
      }
      return { event, data: JSON.parse(data) as Record<string, unknown> };
    });
}

function streamedText(frames: readonly SseFrame[]): string {
  return frames.filter((frame) => frame.data.type === "response.output_text.delta").map((frame) => String(frame.data.delta)).join("");
}

async function assertServiceError(response: Response, status: number, code: string): Promise<ErrorEnvelope> {
  assert.equal(response.status, status);
  const body = (await response.json()) as ErrorEnvelope;
  assert.equal(body.error.code, code, body.error.message);
  const requestId = response.headers.get(REQUEST_ID_HEADER);
  assert.ok(requestId?.startsWith("req_"));
  assert.ok(body.error.message.endsWith(` (request id: ${requestId})`), body.error.message);
  return body;
}

/** Reads a body until it errors or ends; returns the bytes seen and whether it ended cleanly. */
async function readUntilEnd(response: Response): Promise<{ bytes: Buffer; ended: "done" | "error" }> {
  const reader = response.body!.getReader();
  const chunks: Uint8Array[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes: Buffer.concat(chunks), ended: "done" };
      chunks.push(value);
    }
  } catch {
    return { bytes: Buffer.concat(chunks), ended: "error" };
  }
}

function sleep(milliseconds: number): Promise<"timeout"> {
  return new Promise((resolve) => setTimeout(() => resolve("timeout"), milliseconds));
}

async function withEmulator(options: EmulatorOptions, run: (emulator: RelayEmulator) => Promise<void>): Promise<void> {
  const emulator = await startRelayEmulator(options);
  try {
    await run(emulator);
  } finally {
    await emulator.close();
  }
}

describe("relay emulator", () => {
  let emulator: RelayEmulator;

  beforeEach(async () => {
    emulator = await startRelayEmulator();
  });

  afterEach(async () => {
    await emulator.close();
  });

  describe("authentication and permissions", () => {
    const now = Date.now();
    const keys = [
      { key: "sk-good", name: "good" },
      { key: "sk-off", name: "off", enabled: false },
      { key: "sk-old", name: "old", expiresAt: now - 1000 },
      { key: "sk-echo-only", name: "echo-only", models: ["echo"] },
    ];

    it("rejects a missing or unknown key with 401 invalid_api_key", async () => {
      await withEmulator({ keys }, async (relay) => {
        await assertServiceError(await postResponses(relay, { model: "echo", input: [userMessage("hi")] }, { key: null }), 401, "invalid_api_key");
        await assertServiceError(await postResponses(relay, { model: "echo", input: [userMessage("hi")] }, { key: "sk-nope" }), 401, "invalid_api_key");
        await assertServiceError(await getModels(relay, null), 401, "invalid_api_key");
      });
    });

    it("rejects a disabled key with key_disabled and an expired key with key_expired", async () => {
      await withEmulator({ keys }, async (relay) => {
        await assertServiceError(await postResponses(relay, { model: "echo", input: [userMessage("hi")] }, { key: "sk-off" }), 401, "key_disabled");
        await assertServiceError(await postResponses(relay, { model: "echo", input: [userMessage("hi")] }, { key: "sk-old" }), 401, "key_expired");
        await assertServiceError(await getModels(relay, "sk-old"), 401, "key_expired");
      });
    });

    it("sees key changes made while running", async () => {
      await withEmulator({ keys: [{ key: "sk-live", name: "live" }] }, async (relay) => {
        assert.equal((await getModels(relay, "sk-live")).status, 200);
        relay.keys[0].enabled = false;
        await assertServiceError(await getModels(relay, "sk-live"), 401, "key_disabled");
      });
    });

    it("enforces the key's model allow-list with 403 and unknown models with 404", async () => {
      await withEmulator({ keys }, async (relay) => {
        await assertServiceError(await postResponses(relay, { model: "tools", input: [userMessage("hi")] }, { key: "sk-echo-only" }), 403, "model_not_allowed");
        await assertServiceError(await postResponses(relay, { model: "gpt-nonexistent", input: [userMessage("hi")] }, { key: "sk-good" }), 404, "model_not_found");
        assert.equal((await postResponses(relay, { model: "echo", input: [userMessage("hi")] }, { key: "sk-echo-only" })).status, 200);
      });
    });

    it("lists models per key", async () => {
      await withEmulator({ keys, models: ["echo", "tools", "custom-model"] }, async (relay) => {
        const all = (await (await getModels(relay, "sk-good")).json()) as { object: string; data: Array<{ id: string; object: string; owned_by: string }> };
        assert.equal(all.object, "list");
        assert.deepEqual(all.data.map((model) => model.id), ["echo", "tools", "custom-model"]);
        assert.deepEqual(all.data[0], { id: "echo", object: "model", owned_by: "emulator" });
        const limited = (await (await getModels(relay, "sk-echo-only")).json()) as { data: Array<{ id: string }> };
        assert.deepEqual(limited.data.map((model) => model.id), ["echo"]);
      });
    });

    it("lists the scripted models by default", async () => {
      const listed = (await (await getModels(emulator)).json()) as { data: Array<{ id: string }> };
      assert.deepEqual(listed.data.map((model) => model.id), ["echo", "tools", "tools-parallel", "reasoning", "long", "demo", "thinker", "run-message", "run-command", "small-window"]);
    });
  });

  describe("balance and key quota", () => {
    it("refuses with insufficient_quota when the account balance cannot cover the estimate, even with an unlimited key", async () => {
      await withEmulator({ keys: [{ key: "sk-unlimited", name: "unlimited", quota: null }], balance: 3 }, async (relay) => {
        await assertServiceError(await postResponses(relay, { model: "echo", input: [userMessage("hello")] }, { key: "sk-unlimited" }), 429, "insufficient_quota");
        assert.equal(relay.usageLog.length, 0);
        assert.equal(relay.balance, 3);
      });
    });

    it("refuses with insufficient_token_quota when the key quota cannot cover the estimate, whatever the balance", async () => {
      await withEmulator({ keys: [{ key: "sk-small", name: "small", quota: 3 }] }, async (relay) => {
        await assertServiceError(await postResponses(relay, { model: "echo", input: [userMessage("hello")] }, { key: "sk-small" }), 429, "insufficient_token_quota");
      });
    });

    it("estimates against max_output_tokens before serving", async () => {
      await withEmulator({ keys: [{ key: "sk-k", name: "k", quota: 100 }], pricePerInputToken: 1, pricePerOutputToken: 1 }, async (relay) => {
        const body = { model: "echo", input: [userMessage("hi")] };
        await assertServiceError(await postResponses(relay, { ...body, max_output_tokens: 200 }, { key: "sk-k" }), 429, "insufficient_token_quota");
        assert.equal((await postResponses(relay, { ...body, max_output_tokens: 50 }, { key: "sk-k" })).status, 200);
      });
    });

    it("charges actual usage to balance, key quota and the usage log, keyed by request id", async () => {
      await withEmulator({ keys: [{ key: "sk-k", name: "metered", quota: 1000 }], balance: 1000, pricePerInputToken: 1, pricePerOutputToken: 2 }, async (relay) => {
        const response = await postResponses(relay, { model: "echo", input: [userMessage("one two three")], store: false }, { key: "sk-k" });
        const body = (await response.json()) as ResponseBody;
        const expectedCost = body.usage!.input_tokens * 1 + body.usage!.output_tokens * 2;
        assert.deepEqual(relay.usageLog, [
          { requestId: response.headers.get(REQUEST_ID_HEADER), keyName: "metered", model: "echo", inputTokens: body.usage!.input_tokens, outputTokens: body.usage!.output_tokens, cost: expectedCost, status: "completed" },
        ]);
        assert.equal(relay.balance, 1000 - expectedCost);
        assert.equal(relay.keys[0].quota, 1000 - expectedCost);
      });
    });

    it("stops serving once earlier requests have used the balance up", async () => {
      await withEmulator({ balance: 40, pricePerInputToken: 1, pricePerOutputToken: 1 }, async (relay) => {
        const body = { model: "echo", input: [userMessage("hi")] };
        const statuses: number[] = [];
        for (let attempt = 0; attempt < 5; attempt += 1) {
          const response = await postResponses(relay, body);
          statuses.push(response.status);
          await response.arrayBuffer();
        }
        assert.equal(statuses[0], 200);
        assert.equal(statuses.at(-1), 429);
        assert.ok(relay.balance >= 0);
      });
    });
  });

  describe("responses", () => {
    it("streams echo as SSE frames in the service's order, ending with response.completed", async () => {
      const response = await postResponses(emulator, { model: "echo", input: [userMessage("hello streaming world")], stream: true, store: false });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-type"), "text/event-stream; charset=utf-8");
      const frames = parseSse(await response.text());
      for (const frame of frames) assert.equal(frame.event, frame.data.type);
      assert.deepEqual(frames.map((frame) => frame.data.sequence_number), frames.map((_, index) => index));
      const types = frames.map((frame) => String(frame.data.type)).filter((type, index, all) => type !== "response.output_text.delta" || all[index - 1] !== type);
      assert.deepEqual(types, [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.content_part.added",
        "response.output_text.delta",
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.completed",
      ]);
      assert.equal(streamedText(frames), "You said: hello streaming world");
      const deltas = frames.filter((frame) => frame.data.type === "response.output_text.delta");
      assert.ok(deltas.length >= 4, "small word deltas");
      const completed = frames.at(-1)!.data.response as ResponseBody;
      assert.equal(completed.status, "completed");
      assert.equal(completed.usage!.output_tokens, deltas.length);
      assert.equal(completed.usage!.total_tokens, completed.usage!.input_tokens + completed.usage!.output_tokens);
      assert.deepEqual(completed.usage!.input_tokens_details, { cached_tokens: 0 });
      assert.deepEqual(completed.usage!.output_tokens_details, { reasoning_tokens: 0 });
      assert.deepEqual((completed.output[0].content as Array<{ text: string }>)[0].text, "You said: hello streaming world");
    });

    it("answers stream:false with one JSON response body", async () => {
      const response = await postResponses(emulator, { model: "echo", input: [userMessage("plain")], stream: false });
      assert.equal(response.status, 200);
      assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
      const body = (await response.json()) as ResponseBody & { object: string };
      assert.equal(body.object, "response");
      assert.equal(body.status, "completed");
      assert.match(body.id, /^resp_/);
      assert.deepEqual(body.output.map((item) => item.type), ["message"]);
      assert.deepEqual(body.output[0].content, [{ type: "output_text", annotations: [], logprobs: [], text: "You said: plain" }]);
      assert.equal(body.usage!.output_tokens, 3);
    });

    it("counts input tokens as a quarter of the input JSON length", async () => {
      const input = [userMessage("x".repeat(400))];
      const body = (await (await postResponses(emulator, { model: "echo", input })).json()) as ResponseBody;
      assert.equal(body.usage!.input_tokens, Math.ceil(JSON.stringify(input).length / 4));
    });

    it("reports incomplete at max_output_tokens, streamed and not", async () => {
      const input = [userMessage(Array.from({ length: 40 }, (_, index) => `word${index}`).join(" "))];
      const plain = (await (await postResponses(emulator, { model: "echo", input, max_output_tokens: 16 })).json()) as ResponseBody;
      assert.equal(plain.status, "incomplete");
      assert.deepEqual(plain.incomplete_details, { reason: "max_output_tokens" });
      assert.equal(plain.output[0].status, "incomplete");
      assert.equal(plain.usage!.output_tokens, 16);

      const frames = parseSse(await (await postResponses(emulator, { model: "echo", input, max_output_tokens: 16, stream: true })).text());
      const last = frames.at(-1)!;
      assert.equal(last.data.type, "response.incomplete");
      assert.equal((last.data.response as ResponseBody).incomplete_details!.reason, "max_output_tokens");
      const itemDone = frames.find((frame) => frame.data.type === "response.output_item.done")!;
      assert.equal((itemDone.data.item as { status: string }).status, "incomplete");
      assert.equal(frames.filter((frame) => frame.data.type === "response.output_text.delta").length, 16);
      assert.ok(!frames.some((frame) => frame.data.type === "response.completed"));
    });

    it("puts the request-id header on every response, success and error alike, each one distinct", async () => {
      const responses = [
        await postResponses(emulator, { model: "echo", input: [userMessage("hi")] }),
        await postResponses(emulator, { model: "echo", input: [userMessage("hi")], stream: true }),
        await postResponses(emulator, { model: "echo", input: [userMessage("hi")] }, { key: "sk-wrong" }),
        await postResponses(emulator, { model: 5 }),
        await getModels(emulator),
        await fetch(`${emulator.baseUrl}/v2/nothing`),
      ];
      const ids = responses.map((response) => response.headers.get(REQUEST_ID_HEADER));
      for (const id of ids) assert.match(id ?? "", /^req_[0-9a-f]{32}$/);
      assert.equal(new Set(ids).size, ids.length);
      await Promise.all(responses.map((response) => response.arrayBuffer()));
      assert.deepEqual(emulator.received.map((request) => request.requestId), ids);
    });

    it("uses a configured request-id header name", async () => {
      await withEmulator({ requestIdHeader: "X-Relay-Trace" }, async (relay) => {
        const response = await getModels(relay);
        assert.match(response.headers.get("x-relay-trace") ?? "", /^req_/);
        assert.equal(response.headers.get(REQUEST_ID_HEADER), null);
      });
    });

    it("rejects a body that fails the Open Responses schema with 400 invalid_request and the param", async () => {
      const nestedTool = await assertServiceError(
        await postResponses(emulator, { model: "tools", input: [userMessage("hi")], tools: [{ type: "function", function: { name: "f" } }] }),
        400,
        "invalid_request",
      );
      assert.equal(nestedTool.error.param, "tools[0]");
      assert.equal(nestedTool.error.type, "invalid_request_error");
      const badModel = await assertServiceError(await postResponses(emulator, { model: 5, input: [] }), 400, "invalid_request");
      assert.equal(badModel.error.param, "model");
      const missingInput = await assertServiceError(await postResponses(emulator, { model: "echo" }), 400, "invalid_request");
      assert.equal(missingInput.error.param, "input");
      await assertServiceError(await postResponses(emulator, null, { rawBody: "{not json" }), 400, "invalid_request");
      assert.equal(emulator.usageLog.length, 0);
    });

    it("records every request with method, path, headers, parsed and raw body", async () => {
      const body = { model: "echo", input: [userMessage("record me")], store: false };
      await (await postResponses(emulator, body)).arrayBuffer();
      await (await getModels(emulator)).arrayBuffer();
      assert.equal(emulator.received.length, 2);
      assert.equal(emulator.received[0].method, "POST");
      assert.equal(emulator.received[0].path, "/v1/responses");
      assert.deepEqual(emulator.received[0].body, body);
      assert.equal(emulator.received[0].rawBody, JSON.stringify(body));
      assert.equal(emulator.received[0].headers.authorization, `Bearer ${emulator.defaultKey}`);
      assert.equal(emulator.received[1].path, "/v1/models");
      assert.equal(emulator.received[1].body, undefined);
    });

    it("counts POST /v1/responses only, rejected ones included", async () => {
      assert.equal(emulator.postCount(), 0);
      await (await postResponses(emulator, { model: "echo", input: [userMessage("a")] })).arrayBuffer();
      await (await postResponses(emulator, { model: "echo", input: [userMessage("a")] }, { key: "sk-bad" })).arrayBuffer();
      await (await getModels(emulator)).arrayBuffer();
      assert.equal(emulator.postCount(), 2);
    });
  });

  describe("scripted models", () => {
    const weatherTool = { type: "function", name: "get_weather", description: "Weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] }, strict: false };
    const readFileTool = {
      type: "function",
      name: "read_file",
      description: "Read a file",
      parameters: { type: "object", properties: { path: { type: "string" }, lines: { type: "integer" }, mode: { type: "string", enum: ["text", "binary"] }, note: { type: "string" } } },
    };

    it("tools: proposes a call to the first tool with arguments built from its schema, streamed as argument deltas", async () => {
      const frames = parseSse(await (await postResponses(emulator, { model: "tools", input: [userMessage("read it")], tools: [readFileTool], stream: true })).text());
      const added = frames.find((frame) => frame.data.type === "response.output_item.added")!.data.item as Record<string, unknown>;
      assert.equal(added.type, "function_call");
      assert.equal(added.arguments, "");
      const argumentDeltas = frames.filter((frame) => frame.data.type === "response.function_call_arguments.delta").map((frame) => String(frame.data.delta));
      assert.ok(argumentDeltas.length > 1);
      const done = frames.find((frame) => frame.data.type === "response.function_call_arguments.done")!;
      assert.equal(done.data.arguments, argumentDeltas.join(""));
      assert.deepEqual(JSON.parse(String(done.data.arguments)), { path: "README.md", lines: 1, mode: "text", note: "example" });
      const completed = frames.at(-1)!.data.response as ResponseBody;
      assert.equal(completed.status, "completed");
      const call = completed.output[0];
      assert.equal(call.name, "read_file");
      assert.match(String(call.call_id), /^call_/);
    });

    it("tools: prefers get_weather with Paris, then answers from the function_call_output", async () => {
      const first = (await (await postResponses(emulator, { model: "tools", input: [userMessage("weather?")], tools: [readFileTool, weatherTool] })).json()) as ResponseBody;
      const call = first.output[0] as { type: string; name: string; arguments: string; call_id: string };
      assert.equal(call.name, "get_weather");
      assert.deepEqual(JSON.parse(call.arguments), { city: "Paris" });
      const history = [userMessage("weather?"), ...first.output, { type: "function_call_output", call_id: call.call_id, output: "sunny, 21C" }];
      const second = (await (await postResponses(emulator, { model: "tools", input: history, tools: [readFileTool, weatherTool] })).json()) as ResponseBody;
      assert.equal(second.status, "completed");
      assert.deepEqual(second.output[0].content, [{ type: "output_text", annotations: [], logprobs: [], text: "Tool result: sunny, 21C" }]);
    });

    it("tools-parallel: proposes two calls with distinct call ids", async () => {
      const twoTools = (await (await postResponses(emulator, { model: "tools-parallel", input: [userMessage("go")], tools: [readFileTool, weatherTool] })).json()) as ResponseBody;
      assert.deepEqual(twoTools.output.map((item) => item.name), ["read_file", "get_weather"]);
      const oneTool = (await (await postResponses(emulator, { model: "tools-parallel", input: [userMessage("go")], tools: [readFileTool] })).json()) as ResponseBody;
      assert.deepEqual(oneTool.output.map((item) => item.name), ["read_file", "read_file"]);
      assert.notEqual(oneTool.output[0].call_id, oneTool.output[1].call_id);
      const frames = parseSse(await (await postResponses(emulator, { model: "tools-parallel", input: [userMessage("go")], tools: [readFileTool], stream: true })).text());
      assert.deepEqual(frames.filter((frame) => frame.data.type === "response.output_item.added").map((frame) => frame.data.output_index), [0, 1]);
    });

    it("reasoning: a reasoning item (encrypted_content only when included) and summary deltas, then a message", async () => {
      const request = { model: "reasoning", input: [userMessage("think")], stream: true, store: false, include: ["reasoning.encrypted_content"] };
      const frames = parseSse(await (await postResponses(emulator, request)).text());
      const types = frames.map((frame) => frame.data.type);
      assert.ok(types.includes("response.reasoning_summary_part.added"));
      assert.ok(types.includes("response.reasoning_summary_text.delta"));
      assert.ok(types.indexOf("response.reasoning_summary_text.done") < types.indexOf("response.content_part.added"));
      const completed = frames.at(-1)!.data.response as ResponseBody;
      assert.deepEqual(completed.output.map((item) => item.type), ["reasoning", "message"]);
      assert.equal(typeof completed.output[0].encrypted_content, "string");
      assert.ok(completed.usage!.output_tokens_details.reasoning_tokens > 0);
      // The reasoning item must be valid history for the next request.
      const followUp = await postResponses(emulator, { model: "reasoning", input: [userMessage("think"), ...completed.output, userMessage("again")], store: false });
      assert.equal(followUp.status, 200);

      // Without `include`, the item has no encrypted_content and, under store:false, cannot be resent.
      const bare = (await (await postResponses(emulator, { model: "reasoning", input: [userMessage("think")], store: false })).json()) as ResponseBody;
      assert.equal("encrypted_content" in bare.output[0], false);
      const rejected = await postResponses(emulator, { model: "reasoning", input: [userMessage("think"), ...bare.output, userMessage("again")], store: false });
      assert.equal(rejected.status, 400);
      assert.match(((await rejected.json()) as ErrorEnvelope).error.message, /^Item with id 'rs_[0-9a-f]+' not found\. Items are not persisted when `store` is set to false/);
    });

    it("long: a markdown answer of about max_output_tokens words, or 2000 by default", async () => {
      const sized = (await (await postResponses(emulator, { model: "long", input: [userMessage("essay")], max_output_tokens: 300 })).json()) as ResponseBody;
      const text = (sized.output[0].content as Array<{ text: string }>)[0].text;
      assert.match(text, /^## Part 1/);
      assert.match(text, /```ts/);
      assert.equal(sized.usage!.output_tokens, 300);
      const unbounded = (await (await postResponses(emulator, { model: "long", input: [userMessage("essay")] })).json()) as ResponseBody;
      assert.equal(unbounded.usage!.output_tokens, 2000);
      assert.equal(unbounded.status, "completed");
    });

    it("an unscripted model id listed in options behaves like echo", async () => {
      await withEmulator({ models: ["gpt-4o-mini"] }, async (relay) => {
        const body = (await (await postResponses(relay, { model: "gpt-4o-mini", input: [userMessage("hey")] })).json()) as ResponseBody;
        assert.deepEqual((body.output[0].content as Array<{ text: string }>)[0].text, "You said: hey");
      });
    });
  });

  describe("conformance with the Open Responses schema", () => {
    const readFileTool = { type: "function", name: "read_file", parameters: { type: "object", properties: { path: { type: "string" } } } };
    const longInput = [userMessage(Array.from({ length: 30 }, (_, index) => `w${index}`).join(" "))];
    const cases: Array<{ title: string; body: Record<string, unknown> }> = [
      { title: "echo", body: { model: "echo", input: [userMessage("hello")] } },
      { title: "reasoning", body: { model: "reasoning", input: [userMessage("hello")] } },
      { title: "tools-parallel", body: { model: "tools-parallel", input: [userMessage("hello")], tools: [readFileTool] } },
      { title: "incomplete", body: { model: "echo", input: longInput, max_output_tokens: 16 } },
    ];

    for (const { title, body } of cases) {
      it(`${title}: every streamed event and the JSON body validate`, async () => {
        for (const frame of parseSse(await (await postResponses(emulator, { ...body, stream: true })).text())) {
          const result = validateStreamingEvent(frame.data);
          assert.ok(result.valid, `${String(frame.data.type)}: ${result.valid ? "" : result.errors}`);
        }
        const result = validateResponseResource(await (await postResponses(emulator, body)).json());
        assert.ok(result.valid, result.valid ? "" : result.errors);
      });
    }

    it("failed and nested error events validate too", async () => {
      emulator.queueFault({ kind: "failed" });
      emulator.queueFault({ kind: "error_event", nested: true });
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const frames = parseSse(await (await postResponses(emulator, { ...cases[0].body, stream: true })).text());
        const result = validateStreamingEvent(frames.at(-1)!.data);
        assert.ok(result.valid, result.valid ? "" : result.errors);
      }
    });
  });

  describe("faults", () => {
    const streamed = { model: "echo", input: [userMessage("one two three four five six")], stream: true };

    it("failed: response.failed after some text", async () => {
      emulator.queueFault({ kind: "failed", code: "server_error", message: "boom" });
      const response = await postResponses(emulator, streamed);
      assert.equal(response.status, 200);
      const frames = parseSse(await response.text());
      assert.ok(streamedText(frames).length > 0);
      const last = frames.at(-1)!.data;
      assert.equal(last.type, "response.failed");
      assert.deepEqual((last.response as ResponseBody).error, { code: "server_error", message: "boom" });
      assert.equal((last.response as ResponseBody).status, "failed");
      assert.equal(emulator.usageLog[0].status, "failed");
    });

    it("error_event: flat and nested error events after HTTP 200 and some text", async () => {
      emulator.queueFault({ kind: "error_event" });
      emulator.queueFault({ kind: "error_event", nested: true, code: "insufficient_quota", message: "no money" });
      const flat = parseSse(await (await postResponses(emulator, streamed)).text());
      assert.ok(streamedText(flat).length > 0);
      const flatError = flat.at(-1)!;
      assert.equal(flatError.event, "error");
      assert.equal(flatError.data.code, "server_error");
      assert.equal(typeof flatError.data.message, "string");
      const nested = parseSse(await (await postResponses(emulator, streamed)).text()).at(-1)!;
      assert.equal(nested.data.type, "error");
      assert.deepEqual(nested.data.error, { type: "server_error", code: "insufficient_quota", message: "no money", param: null });
    });

    it("disconnect: the body stops after exactly N bytes and the connection drops", async () => {
      emulator.queueFault({ kind: "disconnect", afterBytes: 700 });
      const response = await postResponses(emulator, streamed);
      assert.equal(response.status, 200);
      const { bytes, ended } = await readUntilEnd(response);
      assert.equal(ended, "error");
      assert.equal(bytes.length, 700);
      assert.ok(bytes.toString("utf8").startsWith("event: response.created\n"));
    });

    it("stall: text arrives, then nothing more while the socket stays open; close() ends it", async () => {
      emulator.queueFault({ kind: "stall" });
      const response = await postResponses(emulator, streamed);
      const reader = response.body!.getReader();
      let received = "";
      while (!received.includes("response.output_text.delta")) {
        const { done, value } = await reader.read();
        assert.equal(done, false);
        received += Buffer.from(value!).toString("utf8");
      }
      const next = reader.read().then(
        (result) => (result.done ? "ended" : "data"),
        () => "error",
      );
      assert.equal(await Promise.race([next, sleep(300)]), "timeout");
      await emulator.close();
      assert.equal(await next, "error");
      emulator = await startRelayEmulator();
    });

    it("stall with afterBytes stops after those bytes", async () => {
      emulator.queueFault({ kind: "stall", afterBytes: 50 });
      const response = await postResponses(emulator, streamed);
      const reader = response.body!.getReader();
      const first = await reader.read();
      assert.equal(first.value!.length, 50);
      const next = reader.read().catch(() => ({ done: true, value: undefined }));
      assert.equal(await Promise.race([next, sleep(200)]), "timeout");
      await reader.cancel().catch(() => undefined);
    });

    it("drip: deltas arrive spaced by the interval", async () => {
      emulator.queueFault({ kind: "drip", intervalMs: 40 });
      const started = Date.now();
      const frames = parseSse(await (await postResponses(emulator, streamed)).text());
      const deltas = frames.filter((frame) => frame.data.type === "response.output_text.delta").length;
      assert.ok(Date.now() - started >= deltas * 40 - 20, `${Date.now() - started}ms for ${deltas} deltas`);
      assert.equal(frames.at(-1)!.data.type, "response.completed");
    });

    it("html: an nginx-style error page with text/html", async () => {
      emulator.queueFault({ kind: "html", status: 502 });
      const response = await postResponses(emulator, streamed);
      assert.equal(response.status, 502);
      assert.equal(response.headers.get("content-type"), "text/html");
      assert.match(await response.text(), /<h1>502 Bad Gateway<\/h1>[\s\S]*nginx/);
      assert.match(response.headers.get(REQUEST_ID_HEADER) ?? "", /^req_/);
    });

    it("status: a JSON error envelope with the chosen status and code", async () => {
      emulator.queueFault({ kind: "status", status: 503 });
      emulator.queueFault({ kind: "status", status: 429, code: "rate_limit_exceeded", message: "slow down", retryAfterSeconds: 2 });
      await assertServiceError(await postResponses(emulator, streamed), 503, "service_unavailable");
      const limited = await postResponses(emulator, streamed);
      assert.equal(limited.headers.get("retry-after"), "2");
      const body = await assertServiceError(limited, 429, "rate_limit_exceeded");
      assert.match(body.error.message, /^slow down \(request id: req_/);
      for (const status of [401, 403, 404, 500] as const) {
        emulator.queueFault({ kind: "status", status });
        const response = await postResponses(emulator, streamed);
        assert.equal(response.status, status);
        assert.equal(typeof ((await response.json()) as ErrorEnvelope).error.code, "string");
      }
    });

    it("non_json and flat_error_body", async () => {
      emulator.queueFault({ kind: "non_json", status: 500, body: "upstream exploded" });
      emulator.queueFault({ kind: "flat_error_body", status: 400 });
      const plain = await postResponses(emulator, streamed);
      assert.equal(plain.status, 500);
      assert.equal(await plain.text(), "upstream exploded");
      const flat = await postResponses(emulator, streamed);
      assert.equal(flat.status, 400);
      const body = (await flat.json()) as { message: string; code: string; error?: unknown };
      assert.equal(body.error, undefined);
      assert.equal(typeof body.code, "string");
      assert.ok(body.message.endsWith(`(request id: ${flat.headers.get(REQUEST_ID_HEADER)})`));
    });

    it("applies queued faults FIFO, one per POST, then serves normally", async () => {
      emulator.queueFault({ kind: "status", status: 500 });
      emulator.queueFault({ kind: "status", status: 503 });
      const statuses = [];
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const response = await postResponses(emulator, streamed);
        statuses.push(response.status);
        await response.arrayBuffer();
      }
      assert.deepEqual(statuses, [500, 503, 200]);
    });

    it("non-stream requests see failed as a failed body and error_event as HTTP 500", async () => {
      emulator.queueFault({ kind: "failed" });
      emulator.queueFault({ kind: "error_event" });
      const failed = (await (await postResponses(emulator, { ...streamed, stream: false })).json()) as ResponseBody;
      assert.equal(failed.status, "failed");
      assert.equal(failed.error!.code, "server_error");
      await assertServiceError(await postResponses(emulator, { ...streamed, stream: false }), 500, "server_error");
    });
  });

  describe("replay and canned bodies", () => {
    const textBasic = readFileSync(path.join(referenceStreamsDirectory, "text-basic.sse"));

    it("replays a reference stream byte-identical in random chunks", async () => {
      emulator.queueReplay(textBasic.toString("utf8"), { chunkSizes: "random", seed: 7 });
      const response = await postResponses(emulator, { model: "echo", input: [userMessage("ignored")], stream: true });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-type"), "text/event-stream; charset=utf-8");
      assert.ok(Buffer.from(await response.arrayBuffer()).equals(textBasic));
    });

    it("replays byte by byte and with a chosen status", async () => {
      const functionCall = readFileSync(path.join(referenceStreamsDirectory, "function-call.sse"));
      emulator.queueReplay(functionCall.toString("utf8"), { chunkSizes: 1 });
      emulator.queueReplay("event: error\ndata: {}\n\n", { status: 500 });
      assert.ok(Buffer.from(await (await postResponses(emulator, {})).arrayBuffer()).equals(functionCall));
      const errored = await postResponses(emulator, {});
      assert.equal(errored.status, 500);
      assert.equal(await errored.text(), "event: error\ndata: {}\n\n");
      assert.equal(emulator.postCount(), 2);
    });

    it("answers a queued JSON body with the given status", async () => {
      emulator.queueJsonBody({ id: "resp_x", status: "completed", output: [] });
      emulator.queueJsonBody({ error: { message: "nope", type: "x", code: "y" } }, 418);
      const first = await postResponses(emulator, { model: "echo", input: [] });
      assert.equal(first.status, 200);
      assert.deepEqual(await first.json(), { id: "resp_x", status: "completed", output: [] });
      assert.equal((await postResponses(emulator, { model: "echo", input: [] })).status, 418);
    });
  });

  describe("command line", () => {
    it("prints {baseUrl, key} and serves until SIGTERM", async () => {
      const child = spawn(process.execPath, ["--require", "tsx/cjs", path.resolve(__dirname, "../emulator/main.ts"), "--key", "sk-cli"], { stdio: ["ignore", "pipe", "inherit"] });
      try {
        const firstLine = await new Promise<string>((resolve, reject) => {
          createInterface({ input: child.stdout! }).once("line", resolve);
          child.once("exit", (code) => reject(new Error(`exited with ${code}`)));
        });
        const started = JSON.parse(firstLine) as { baseUrl: string; key: string };
        assert.equal(started.key, "sk-cli");
        assert.match(started.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
        const models = await fetch(`${started.baseUrl}/v1/models`, { headers: { authorization: "Bearer sk-cli" } });
        assert.equal(models.status, 200);
        await models.arrayBuffer();
        const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        assert.equal(await exited, 0);
      } finally {
        if (child.exitCode === null) child.kill("SIGKILL");
      }
    });
  });
});
