import type { ModelInfo } from "../types";
import type { WireProtocol } from "./wire";

/**
 * The wire a relay's model list says a model speaks, before any request: new-api lists `supported_endpoint_types`
 * per model ("openai" is Chat Completions, "openai-response" the Responses interface). Null when the list says
 * nothing about it (most relays), or names neither.
 */
export function listedProtocolOf(model: ModelInfo | undefined): WireProtocol | null {
  const types = model?.supported_endpoint_types;
  if (!Array.isArray(types)) return null;
  if (types.includes("openai-response")) return "responses";
  if (types.includes("openai")) return "chat";
  return null;
}
