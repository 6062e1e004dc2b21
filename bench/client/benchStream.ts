// The benchmark workload, built the same way in every process: one Responses stream of 20,008 events
// (20,000 text deltas of 3 to 8 characters between the usual bracketing events), every frame with an
// `event:` line, like the real service sends.

export const DELTA_COUNT = 20_000;

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

function frame(event: Record<string, unknown>): string {
  return `event: ${event.type as string}\ndata: ${JSON.stringify(event)}\n\n`;
}

export function buildBenchStream(): { bytes: Buffer; eventCount: number; text: string } {
  const random = seededRandom(42);
  const alphabet = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ.,;:!?0123456789";
  const deltas: string[] = [];
  for (let index = 0; index < DELTA_COUNT; index += 1) {
    const length = 3 + Math.floor(random() * 6);
    let delta = "";
    for (let char = 0; char < length; char += 1) delta += alphabet[Math.floor(random() * alphabet.length)];
    deltas.push(delta);
  }
  return buildTextStream(deltas, "resp_bench0000000000000000000000000000000000000000");
}

/** A completed Responses stream whose one message is written by these text deltas. */
export function buildTextStream(deltas: readonly string[], responseId: string): { bytes: Buffer; eventCount: number; text: string } {
  const itemId = "msg_68c9ef5f5e248194b5a4e3";
  const response = (status: string, output: unknown[], usage: unknown) => ({
    id: responseId, object: "response", created_at: 1758064478, status, error: null, incomplete_details: null,
    model: "bench-model", output, parallel_tool_calls: true, store: false, tools: [], usage,
  });
  const frames: string[] = [];
  let sequence = 0;
  const push = (event: Record<string, unknown>) => frames.push(frame({ ...event, sequence_number: sequence++ }));
  push({ type: "response.created", response: response("in_progress", [], null) });
  push({ type: "response.in_progress", response: response("in_progress", [], null) });
  push({ type: "response.output_item.added", output_index: 0, item: { id: itemId, type: "message", status: "in_progress", content: [], role: "assistant" } });
  push({ type: "response.content_part.added", item_id: itemId, output_index: 0, content_index: 0, part: { type: "output_text", annotations: [], logprobs: [], text: "" } });
  for (const delta of deltas) push({ type: "response.output_text.delta", item_id: itemId, output_index: 0, content_index: 0, delta });
  const text = deltas.join("");
  const part = { type: "output_text", annotations: [], logprobs: [], text };
  const item = { id: itemId, type: "message", status: "completed", content: [part], role: "assistant" };
  push({ type: "response.output_text.done", item_id: itemId, output_index: 0, content_index: 0, text });
  push({ type: "response.content_part.done", item_id: itemId, output_index: 0, content_index: 0, part });
  push({ type: "response.output_item.done", output_index: 0, item });
  const usage = { input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: deltas.length, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: deltas.length + 12 };
  push({ type: "response.completed", response: response("completed", [item], usage) });
  return { bytes: Buffer.from(frames.join(""), "utf8"), eventCount: sequence, text };
}

export { seededRandom };
