import * as vscode from "vscode";
import type { ChatMessage, ChatPart } from "./responsesInput";
import { imageTypeOf } from "./responsesInput";

// Reads VS Code's message classes into plain data (responsesInput.ts). VS Code revives the parts it
// sends into this extension host's own classes, so `instanceof` is reliable for the final ones; parts
// of newer or proposed kinds (data parts, thinking parts) are recognised by their shape, because the
// @types/vscode version this extension builds against does not declare them.

export function chatMessagesFrom(messages: readonly vscode.LanguageModelChatRequestMessage[]): ChatMessage[] {
  return messages.map((message) => ({ role: roleOf(message.role), parts: message.content.map(partOf) }));
}

function roleOf(role: vscode.LanguageModelChatMessageRole): ChatMessage["role"] {
  if (role === vscode.LanguageModelChatMessageRole.User) return "user";
  if (role === vscode.LanguageModelChatMessageRole.Assistant) return "assistant";
  // 3 is the (proposed) System role that VS Code's own chat uses for its instructions.
  return "system";
}

function partOf(part: unknown): ChatPart {
  if (part instanceof vscode.LanguageModelTextPart) return { kind: "text", text: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart) return { kind: "tool_call", callId: part.callId, name: part.name, input: part.input };
  if (part instanceof vscode.LanguageModelToolResultPart) return { kind: "tool_result", callId: part.callId, text: toolResultText(part.content) };
  const data = dataPartOf(part);
  if (data === null) return { kind: "skipped", what: kindName(part) };
  const mediaType = imageTypeOf(data.mimeType);
  if (mediaType !== null) return { kind: "image", mediaType, base64: Buffer.from(data.data).toString("base64") };
  const text = dataPartText(data);
  return text === null ? { kind: "skipped", what: data.mimeType } : { kind: "text", text };
}

/** A tool result is sent as one string; a part that cannot be text is named, so the model knows it was there. */
export function toolResultText(content: readonly unknown[]): string {
  return content
    .map((part) => {
      if (part instanceof vscode.LanguageModelTextPart) return part.value;
      if (part instanceof vscode.LanguageModelPromptTsxPart) return JSON.stringify(part.value);
      const data = dataPartOf(part);
      if (data !== null) return dataPartText(data) ?? `[a ${data.mimeType} part was left out: the relay takes text only]`;
      return `[a ${kindName(part)} part was left out: the relay takes text only]`;
    })
    .join("");
}

/** LanguageModelDataPart (final in later VS Code versions), recognised by its shape. */
function dataPartOf(part: unknown): { mimeType: string; data: Uint8Array } | null {
  if (typeof part !== "object" || part === null) return null;
  const { mimeType, data } = part as { mimeType?: unknown; data?: unknown };
  return typeof mimeType === "string" && data instanceof Uint8Array ? { mimeType, data } : null;
}

/** Text and JSON data are read as text; anything else is not (null). */
function dataPartText(part: { mimeType: string; data: Uint8Array }): string | null {
  return /^text\/|[/+]json$/i.test(part.mimeType) ? new TextDecoder().decode(part.data) : null;
}

function kindName(part: unknown): string {
  if (typeof part !== "object" || part === null) return typeof part;
  return part.constructor?.name && part.constructor.name !== "Object" ? part.constructor.name : "unknown";
}
