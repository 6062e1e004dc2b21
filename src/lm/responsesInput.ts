import * as l10n from "@vscode/l10n";
// Pure rules for turning the messages VS Code's chat sends to a language model into the Responses
// `input` a relay understands. VS Code keeps the conversation, so every request carries it whole, as the
// relay spec asks of any client. The `vscode` classes are read by the adapter (lmMessageParts.ts); what
// arrives here is plain data, so these rules are tested on plain Node.
import { isObject } from "../relay/outputItems";
import type { FunctionToolDefinition, InputItem, JsonObject } from "../relay/types";

export type ChatPart =
  | { kind: "text"; text: string }
  /** The model's earlier call, as VS Code hands it back: arguments already parsed. */
  | { kind: "tool_call"; callId: string; name: string; input: unknown }
  /** What the caller's tool returned, as text. */
  | { kind: "tool_result"; callId: string; text: string }
  /** An image the user attached (a model marked as reading images), its bytes base64-encoded. */
  | { kind: "image"; mediaType: string; base64: string }
  /** A part the relay cannot take (an image, a cache hint, a thinking part): left out, and said so. */
  | { kind: "skipped"; what: string };

export interface ChatMessage {
  role: "user" | "assistant" | "system";
  parts: ChatPart[];
}

export interface OfferedTool {
  name: string;
  description: string;
  inputSchema?: object;
}

/** The schema a relay gets for a tool that declares none: an object with any properties. */
const EMPTY_OBJECT_SCHEMA: JsonObject = { type: "object", properties: {} };

/**
 * The `input` items, in order. Within a user message, tool results come first: the Responses interface
 * wants each `function_call_output` right after the history that holds its `function_call`, and VS Code
 * puts any text of that message after the results; its images follow its text as `input_image` parts.
 * Within an assistant message, text comes before the calls, as the model wrote it. `relayName` maps a
 * tool's VS Code name to the name the relay knows.
 */
export function responsesInputFrom(messages: readonly ChatMessage[], relayName: (name: string) => string): InputItem[] {
  const items: InputItem[] = [];
  for (const message of messages) {
    const text = message.parts.map((part) => (part.kind === "text" ? part.text : "")).join("");
    if (message.role === "user") {
      for (const part of message.parts) {
        if (part.kind === "tool_result") items.push({ type: "function_call_output", call_id: part.callId, output: part.text });
      }
      const images = message.parts.flatMap((part) => (part.kind === "image" ? [{ type: "input_image", image_url: `data:${part.mediaType};base64,${part.base64}` }] : []));
      if (images.length > 0) items.push({ type: "message", role: "user", content: [...(text === "" ? [] : [{ type: "input_text", text }]), ...images] });
      else if (text !== "") items.push({ type: "message", role: "user", content: text });
    } else if (message.role === "assistant") {
      if (text !== "") items.push({ type: "message", role: "assistant", content: text });
      for (const part of message.parts) {
        if (part.kind === "tool_call") {
          items.push({ type: "function_call", call_id: part.callId, name: relayName(part.name), arguments: JSON.stringify(part.input ?? {}) });
        }
      }
    } else if (text !== "") {
      items.push({ type: "message", role: "system", content: text });
    }
  }
  return items;
}

/** The image types the Responses `input_image` part takes; another image type is left out like other data. */
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);

/** The media type to send an image part under, or null when the part is no image a relay takes. */
export function imageTypeOf(mimeType: string): string | null {
  const normal = mimeType.toLowerCase() === "image/jpg" ? "image/jpeg" : mimeType.toLowerCase();
  return IMAGE_TYPES.has(normal) ? normal : null;
}

/**
 * Every tool name a request carries, each once: the offered tools' first (so they keep the spelling they were
 * offered under), then those of calls in the history, which may name a tool that is no longer offered.
 */
export function toolNamesToSend(messages: readonly ChatMessage[], offered: readonly OfferedTool[]): string[] {
  const names = offered.map((tool) => tool.name);
  for (const message of messages) {
    for (const part of message.parts) if (part.kind === "tool_call") names.push(part.name);
  }
  return [...new Set(names)];
}

/** The kinds of parts that were left out, for the log line ("2 × image/png"). */
export function skippedPartsOf(messages: readonly ChatMessage[]): string[] {
  const counts = new Map<string, number>();
  for (const message of messages) {
    for (const part of message.parts) if (part.kind === "skipped") counts.set(part.what, (counts.get(part.what) ?? 0) + 1);
  }
  return [...counts].map(([what, count]) => `${count} × ${what}`);
}

/** The request's `tools`, in the flat Responses layout, under their relay names. */
export function functionToolsFrom(tools: readonly OfferedTool[], relayName: (name: string) => string): FunctionToolDefinition[] {
  return tools.map((tool) => ({
    type: "function",
    name: relayName(tool.name),
    description: tool.description,
    parameters: isObject(tool.inputSchema) && Object.keys(tool.inputSchema).length > 0 ? tool.inputSchema : EMPTY_OBJECT_SCHEMA,
  }));
}

/**
 * Reads the arguments of a completed function call for a `LanguageModelToolCallPart`, which wants an
 * object. Models send "" for a call without arguments; anything else must be a JSON object.
 */
export function parseCallArguments(text: string): { ok: true; input: object } | { ok: false; problem: string } {
  if (text.trim() === "") return { ok: true, input: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: l10n.t("not valid JSON ({0})", (error as Error).message) };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, problem: Array.isArray(value) ? l10n.t("not a JSON object (an array)") : l10n.t("not a JSON object ({0})", value === null ? "null" : typeof value) };
  }
  return { ok: true, input: value };
}
