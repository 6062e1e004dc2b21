// The host benchmark's workload, built the same way in every process: a Responses stream whose answer
// has a given size, in text deltas of 3 to 8 characters (like a real model's tokens), bracketed by the
// usual events, every frame with an `event:` line.

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

export interface AnswerStream {
  bytes: Buffer;
  eventCount: number;
  text: string;
}

export function buildAnswerStream(answerCharacters: number, seed = 42): AnswerStream {
  const random = seededRandom(seed);
  const words = ["relay", "stream", "token", "answer", "the", "of", "panel", "cost", "flat", "and", "a", "host"];
  const responseId = `resp_bench${answerCharacters}`;
  const itemId = "msg_bench";
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
  const pieces: string[] = [];
  let length = 0;
  let deltas = 0;
  while (length < answerCharacters) {
    // Prose with a paragraph break now and then, so the answer is ordinary markdown.
    const word = words[Math.floor(random() * words.length)];
    const delta = random() < 0.02 ? `${word}.\n\n` : ` ${word}`;
    pieces.push(delta);
    length += delta.length;
    deltas += 1;
    push({ type: "response.output_text.delta", item_id: itemId, output_index: 0, content_index: 0, delta });
  }
  const text = pieces.join("");
  const part = { type: "output_text", annotations: [], logprobs: [], text };
  const item = { id: itemId, type: "message", status: "completed", content: [part], role: "assistant" };
  push({ type: "response.output_text.done", item_id: itemId, output_index: 0, content_index: 0, text });
  push({ type: "response.content_part.done", item_id: itemId, output_index: 0, content_index: 0, part });
  push({ type: "response.output_item.done", output_index: 0, item });
  const usage = { input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: deltas, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: deltas + 12 };
  push({ type: "response.completed", response: response("completed", [item], usage) });
  return { bytes: Buffer.from(frames.join(""), "utf8"), eventCount: sequence, text };
}

/** The model id names the answer size: "answer-6000" streams a 6,000-character answer. */
export function answerCharactersOf(model: string): number {
  const match = /^answer-(\d+)$/.exec(model);
  return match ? Number(match[1]) : 6000;
}
