import { isObject } from "../outputItems";
import type { JsonObject, JsonValue } from "../types";

// The reasoning a thinking model streams over Chat Completions, kept in the form it came so it can go back
// verbatim, in the field it came in, on the assistant message it belongs to. DeepSeek (V3.2 and V4 thinking) and
// Kimi K2 answer HTTP 400 when an assistant message with tool calls comes back without its `reasoning_content`
// ("The `reasoning_content` in the thinking mode must be passed back to the API." / "thinking is enabled but
// reasoning_content is missing in assistant tool call message at index N"); OpenRouter asks for `reasoning_details`
// back unmodified ("Preserving reasoning blocks"). The fields:
// - `reasoning_content` (DeepSeek, Kimi, Qwen, vLLM): text, kept when the field came at all, even empty: a thinking
//   model that chose not to think before a tool call still streams `reasoning_content: ""`, and the relay checks
//   that the field comes back.
// - `reasoning` (OpenRouter, Groq): text, kept when it is not empty (OpenRouter sends `null` on every other chunk).
// - `reasoning_details` (OpenRouter): a list of blocks (`reasoning.text`, `reasoning.summary`, `reasoning.encrypted`)
//   streamed in pieces that carry their block's `index`: a piece adds its text to the block of the same index and
//   type, other fields (signature, format, id) are taken as they come.
// The reasoning is stored on the turn's `reasoning` item under CHAT_REASONING_FIELD (the item's `summary` holds the
// text shown in the panel). The Responses interface has no field for it: it stays out of a Responses request.

/** The key of a reasoning item under which the Chat Completions reasoning fields are kept as they came. */
export const CHAT_REASONING_FIELD = "chat_completions";

export interface ChatReasoning extends JsonObject {
  reasoning_content?: string;
  reasoning?: string;
  reasoning_details?: JsonObject[];
}

/** The parts of a block in `reasoning_details` that arrive in pieces, each adding to the last. */
const PIECEWISE_FIELDS = new Set(["text", "summary", "data"]);

/** Collects the reasoning fields of one answer's deltas. */
export class ChatReasoningCollector {
  private readonly fields: ChatReasoning = {};
  private present = false;

  /** Whether any reasoning field came (an empty `reasoning_content` counts). */
  get received(): boolean {
    return this.present;
  }

  /** Reads a delta's reasoning fields and returns the text it adds to what the panel shows ("" for none). */
  read(delta: JsonObject): string {
    let shown = "";
    if (typeof delta.reasoning_content === "string") {
      this.present = true;
      this.fields.reasoning_content = (this.fields.reasoning_content ?? "") + delta.reasoning_content;
      shown = delta.reasoning_content;
    }
    if (typeof delta.reasoning === "string" && delta.reasoning !== "") {
      this.present = true;
      this.fields.reasoning = (this.fields.reasoning ?? "") + delta.reasoning;
      if (shown === "") shown = delta.reasoning;
    }
    if (Array.isArray(delta.reasoning_details) && delta.reasoning_details.some(isObject)) {
      this.present = true;
      const details = (this.fields.reasoning_details ??= []);
      const before = details.length;
      for (const piece of delta.reasoning_details) if (isObject(piece)) addDetail(details, before, piece);
      // OpenRouter sends the same text as `reasoning` beside the blocks: it is shown once.
      if (shown === "") shown = delta.reasoning_details.map(detailText).join("");
    }
    return shown;
  }

  /** The fields as they came, or null when none did. */
  collected(): ChatReasoning | null {
    if (!this.present) return null;
    return { ...this.fields, ...(this.fields.reasoning_details ? { reasoning_details: this.fields.reasoning_details.map((detail) => ({ ...detail })) } : {}) };
  }
}

/**
 * Adds a streamed piece to the block it continues: one of the blocks that were there before this delta (`before`)
 * with the same index and type. A whole body's list comes in one delta, so its blocks are kept as listed.
 */
function addDetail(details: JsonObject[], before: number, piece: JsonObject): void {
  const index = typeof piece.index === "number" ? piece.index : null;
  const block = index === null ? undefined : details.slice(0, before).find((candidate) => candidate.index === index && candidate.type === piece.type);
  if (!block) {
    details.push({ ...piece });
    return;
  }
  for (const [field, value] of Object.entries(piece)) {
    if (value === undefined || value === null) continue;
    const kept = block[field];
    block[field] = PIECEWISE_FIELDS.has(field) && typeof value === "string" && typeof kept === "string" ? kept + value : value;
  }
}

function detailText(detail: JsonValue): string {
  if (!isObject(detail)) return "";
  if (detail.type === "reasoning.text" && typeof detail.text === "string") return detail.text;
  if (detail.type === "reasoning.summary" && typeof detail.summary === "string") return detail.summary;
  return "";
}

/** The Chat Completions reasoning an item carries (a reasoning item read from that wire), or null. */
export function chatReasoningOf(item: JsonObject): ChatReasoning | null {
  if (item.type !== "reasoning") return null;
  const kept = item[CHAT_REASONING_FIELD];
  if (!isObject(kept)) return null;
  const reasoning: ChatReasoning = {};
  if (typeof kept.reasoning_content === "string") reasoning.reasoning_content = kept.reasoning_content;
  if (typeof kept.reasoning === "string") reasoning.reasoning = kept.reasoning;
  if (Array.isArray(kept.reasoning_details)) reasoning.reasoning_details = kept.reasoning_details.filter(isObject);
  return Object.keys(reasoning).length > 0 ? reasoning : null;
}

/**
 * Whether the reasoning may go to another relay: plain text may (it is the model's own words, like its answer);
 * `reasoning_details` may hold a provider's encrypted or signed blocks, which only the relay they came through
 * can hand back to that provider.
 */
export function isPortableChatReasoning(reasoning: ChatReasoning): boolean {
  return reasoning.reasoning_details === undefined;
}

/** The text a reasoning item sends over Chat Completions, for estimates: what goes back, counted once. */
export function chatReasoningSentText(item: JsonObject): string | null {
  const reasoning = chatReasoningOf(item);
  if (reasoning === null) return null;
  return (reasoning.reasoning_content ?? "") + (reasoning.reasoning ?? "") + (reasoning.reasoning_details ? JSON.stringify(reasoning.reasoning_details) : "");
}

/** Whether the item holds Chat Completions reasoning with no text at all (a thinking model that did not think). */
export function isEmptyChatReasoning(item: JsonObject): boolean {
  return chatReasoningSentText(item) === "";
}
