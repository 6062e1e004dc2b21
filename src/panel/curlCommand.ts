import type { Conversation, Turn } from "../chat/conversation";
import { findTurn } from "../chat/conversation";
import { requestInputFor } from "../chat/historyItems";
import type { ChatTools } from "../chat/toolRound";
import { endpointUrl } from "../relay/baseUrl";
import { buildResponseRequest } from "../relay/requestBuilder";
import type { InputItem, ResponseRequest } from "../relay/types";

/**
 * A shell command that repeats a request. The key is never in it: the command reads
 * $RELAY_CHAT_API_KEY, and the body goes through a quoted here-document so nothing in it is expanded.
 */
export function curlCommandFor(endpoint: string, request: ResponseRequest): string {
  const body = JSON.stringify(request, null, 2);
  const streamFlag = request.stream ? " -N" : "";
  return [
    `curl -sS${streamFlag} '${endpoint.replace(/'/g, "'\\''")}' \\`,
    `  -H "Authorization: Bearer $RELAY_CHAT_API_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  --data-binary @- <<'RELAY_CHAT_REQUEST_BODY'`,
    body,
    "RELAY_CHAT_REQUEST_BODY",
  ].join("\n");
}

/**
 * The curl command for the request behind one receipt of a turn: its model, budget and streaming as
 * recorded, the tools the session offers, and the input it was sent with. The input is rebuilt from the
 * turn (the user message, then the output and function results of each earlier completed request);
 * for a Continue or a larger-budget retry it is the turn's input as it stands now.
 */
export function curlForReceipt(root: string, conversation: Conversation, turnId: string, receiptIndex: number, tools: ChatTools | null): string | null {
  const turn = findTurn(conversation, turnId);
  const record = turn?.requests[receiptIndex];
  if (turn === undefined || record === undefined) return null;
  const request = buildResponseRequest({
    model: record.model,
    input: inputOfRequest(conversation, turn, receiptIndex),
    tools: tools?.registry.requestTools(tools.availability),
    maxOutputTokens: record.maxOutputTokens,
    stream: record.streamed,
  });
  return curlCommandFor(endpointUrl(root, "responses"), request);
}

function inputOfRequest(conversation: Conversation, turn: Turn, receiptIndex: number): InputItem[] {
  const all = requestInputFor(conversation, turn);
  const earlier = turn.requests.slice(0, receiptIndex);
  if (turn.requests.slice(0, receiptIndex + 1).some((request) => request.purpose !== "send" && request.purpose !== "tool_follow_up")) return all;
  let turnItems = 1;
  for (const request of earlier) {
    if (request.outcome.kind !== "completed") continue;
    turnItems += request.output.length + request.output.filter((item) => item.type === "function_call").length;
  }
  return all.slice(0, all.length - turn.items.length + Math.min(turnItems, turn.items.length));
}
