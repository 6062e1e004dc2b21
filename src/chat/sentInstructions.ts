import type { Conversation, InstructionsRecord } from "./conversation";

// The instruction text a request carried, kept so "Copy as curl" repeats the request as it was sent. The
// request log keeps only the sources and a hash; the conversation, stored locally beside the messages it
// holds, keeps the text once: the first request that carried it holds it, a later one with the same hash
// finds it there. Turns are never removed, so the text stays findable for as long as the request is.

/** The record of a request's instructions: the text only when no earlier request of the conversation holds it. */
export function instructionsRecordFor(conversation: Conversation, instructions: InstructionsRecord & { text: string }): InstructionsRecord {
  const record: InstructionsRecord = { sources: instructions.sources, hash: instructions.hash };
  return sentInstructionsText(conversation, instructions.hash) === undefined ? { ...record, text: instructions.text } : record;
}

/** The text sent with the hash `hash`; undefined when no request kept it (saved before the text was kept). */
export function sentInstructionsText(conversation: Conversation, hash: string): string | undefined {
  for (const turn of conversation.turns) {
    for (const request of turn.requests) {
      const text = request.instructions?.hash === hash ? request.instructions.text : undefined;
      if (typeof text === "string") return text;
    }
  }
  return undefined;
}
