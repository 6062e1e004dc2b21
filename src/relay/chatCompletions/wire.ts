import { SseEventDecoder } from "../sseDecoder";
import type { RelayEvent, ResponseRequest } from "../types";
import { chatCompletionsRequest } from "./requestMapping";
import { ChatCompletionsStreamDecoder } from "./streamDecoder";
import { responseObjectOfChatCompletion } from "./wholeBody";

// Which wire one request goes over: the path, the body, and how the answer is read back into Responses events.
// The client does the HTTP, the timing and the bookkeeping the same for both.

/** The two wire formats a relay may offer for a model (the setting's `protocol`). */
export type WireProtocol = "responses" | "chat";

export interface EventDecoder {
  push(chunk: Uint8Array): RelayEvent[];
  end(): RelayEvent[];
}

export interface Wire {
  endpoint: "responses" | "chat/completions";
  body: string;
  decoder(): EventDecoder;
  /** A whole (non-stream) success body in the form the client reads: a Responses response object. */
  wholeBody(text: string): string;
}

export function wireFor(protocol: WireProtocol | undefined, request: ResponseRequest): Wire {
  if (protocol !== "chat") return { endpoint: "responses", body: JSON.stringify(request), decoder: () => new SseEventDecoder(), wholeBody: (text) => text };
  return {
    endpoint: "chat/completions",
    body: JSON.stringify(chatCompletionsRequest(request).body),
    decoder: () => new ChatCompletionsStreamDecoder(),
    wholeBody: (text) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return text;
      }
      const response = responseObjectOfChatCompletion(parsed);
      return response ? JSON.stringify(response) : text;
    },
  };
}
