import { DELTA_COUNT, seededRandom } from "./benchStream";

// The Chat Completions workload of bench:client: the same 20,000 text deltas as the Responses stream, as OpenAI's
// chunks (`data:` lines only, `usage: null` and an `obfuscation` pad on each, the finish chunk, the usage chunk with
// empty choices, `data: [DONE]`), so both wires are measured on the same answer.

export function buildChatBenchStream(): { bytes: Buffer; chunkCount: number; text: string } {
  const random = seededRandom(42);
  const alphabet = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ.,;:!?0123456789";
  const frames: string[] = [];
  const chunk = (delta: object, finishReason: string | null = null) => ({ id: "chatcmpl-bench000000000000000000", object: "chat.completion.chunk", created: 1754688908, model: "bench-model", service_tier: "default", system_fingerprint: "fp_bench", choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], usage: null, obfuscation: "pad" });
  const push = (value: object) => frames.push(`data: ${JSON.stringify(value)}\n\n`);
  push(chunk({ role: "assistant", content: "", refusal: null }));
  let text = "";
  for (let index = 0; index < DELTA_COUNT; index += 1) {
    const length = 3 + Math.floor(random() * 6);
    let delta = "";
    for (let char = 0; char < length; char += 1) delta += alphabet[Math.floor(random() * alphabet.length)];
    text += delta;
    push(chunk({ content: delta }));
  }
  push(chunk({}, "stop"));
  push({ ...chunk({}), choices: [], usage: { prompt_tokens: 12, completion_tokens: DELTA_COUNT, total_tokens: DELTA_COUNT + 12, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } } });
  frames.push("data: [DONE]\n\n");
  return { bytes: Buffer.from(frames.join(""), "utf8"), chunkCount: frames.length, text };
}
