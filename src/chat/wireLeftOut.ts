import { chatCompletionsRequest } from "../relay/chatCompletions/requestMapping";
import type { InputItem, ResponseRequest } from "../relay/types";
import type { RequestRecord } from "./conversation";
import { chatReasoningLeftOfResponses } from "./historyItems";

// What a conversation that moved between wires cannot take along, counted for the request's receipt: the
// Responses interface's reasoning items (encrypted for that interface) and message parts like files have no form
// in Chat Completions; reasoning read from Chat Completions has no field in the Responses interface. Counted from
// the same mapping the client sends, so the receipt says exactly what was left out.

export type WireLeftOut = Pick<RequestRecord, "chatReasoningLeftOut" | "chatPartsLeftOut" | "responsesReasoningLeftOut">;

/** `history`: the items before filtering; `request`: the body as it goes (its input filtered for `protocol`). */
export function leftOutOfWire(history: readonly InputItem[], request: ResponseRequest, protocol: "chat" | undefined): WireLeftOut {
  if (protocol !== "chat") {
    const reasoning = chatReasoningLeftOfResponses(history);
    return reasoning > 0 ? { responsesReasoningLeftOut: reasoning } : {};
  }
  const mapped = chatCompletionsRequest(request);
  return {
    ...(mapped.reasoningLeftOut > 0 ? { chatReasoningLeftOut: mapped.reasoningLeftOut } : {}),
    ...(mapped.partsLeftOut > 0 ? { chatPartsLeftOut: mapped.partsLeftOut } : {}),
  };
}
