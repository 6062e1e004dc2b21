import type { Conversation } from "../../chat/conversation";
import type { ImageStore } from "../../chat/imageStore";
import { requestSentFor } from "../../chat/requestSent";
import { endpointUrl } from "../../relay/baseUrl";
import { chatCompletionsRequest } from "../../relay/chatCompletions/requestMapping";
import type { JsonObject, ResponseRequest } from "../../relay/types";

/**
 * A shell command that repeats a request. The key is never in it: the command reads
 * $RELAY_CHAT_API_KEY, and the body goes through a quoted here-document so nothing in it is expanded.
 * `extraHeaders` are the non-secret headers the request was sent with (relayChat.extraHeaders).
 */
export function curlCommandFor(endpoint: string, request: ResponseRequest | JsonObject, extraHeaders: Readonly<Record<string, string>> = {}): string {
  const body = JSON.stringify(request, null, 2);
  const streamFlag = request.stream ? " -N" : "";
  return [
    `curl -sS${streamFlag} ${shellQuoted(endpoint)} \\`,
    `  -H "Authorization: Bearer $RELAY_CHAT_API_KEY" \\`,
    ...Object.entries(extraHeaders).map(([name, value]) => `  -H ${shellQuoted(`${name}: ${value}`)} \\`),
    `  -H 'Content-Type: application/json' \\`,
    `  --data-binary @- <<'RELAY_CHAT_REQUEST_BODY'`,
    body,
    "RELAY_CHAT_REQUEST_BODY",
  ].join("\n");
}

/**
 * The curl command for the request behind one receipt of a turn: exactly the body and extra headers that
 * request was sent with (see requestSentFor), so it repeats that request, not one rebuilt from the
 * conversation as it is now.
 */
export async function curlForReceipt(root: string, conversation: Conversation, turnId: string, receiptIndex: number, images: ImageStore): Promise<string | null> {
  const sent = requestSentFor(conversation, turnId, receiptIndex);
  if (sent === null) return null;
  // The record keeps image references; the request carried the images' data URLs.
  const body = { ...sent.body, input: await images.resolve(sent.body.input) };
  if (sent.protocol === "chat") return curlCommandFor(endpointUrl(root, "chat/completions"), chatCompletionsRequest(body).body, sent.extraHeaders);
  return curlCommandFor(endpointUrl(root, "responses"), body, sent.extraHeaders);
}

function shellQuoted(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}
