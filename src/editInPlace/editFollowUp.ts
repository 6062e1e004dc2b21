import type { InputItem } from "../relay/types";
import { userMessage } from "../relay/requestBuilder";
import { fencedBlock, fenceFor } from "./editPrompt";

// A follow-up instruction ("shorter", "keep the comments") refines a change an edit in place left pending. The model
// reads it as a short conversation: the first request (the original lines, the first instruction), its answer (the
// replacement now pending), then the follow-up, which asks again for the whole new text of the original lines, so
// the refined answer replaces the original lines exactly as the first did and Undo still brings the original back.

/** One earlier request of the same change: what was asked, and the replacement it left pending. */
export interface EditTurn {
  readonly prompt: string;
  readonly answer: string;
}

/** The user message of a follow-up. `earlier` decides the fence, so it is longer than any in the conversation. */
export function followUpPrompt(instruction: string, languageId: string, earlier: readonly EditTurn[]): string {
  const fence = conversationFence(earlier);
  return [
    `Follow-up instruction: ${instruction.trim()}`,
    "Change the replacement you gave last as this asks, and keep what the earlier instructions asked for unless this says otherwise.",
    `Answer with the complete new text of the originally selected lines (the lines of my first message, which your answer replaces) in one ${fence}${languageId} code block and nothing else.`,
  ].join("\n\n");
}

/** The earlier requests and their answers, each answer as the one code block the model was asked for. */
export function conversationInput(earlier: readonly EditTurn[], languageId: string): InputItem[] {
  const fence = conversationFence(earlier);
  return earlier.flatMap((turn) => [userMessage(turn.prompt), { type: "message", role: "assistant", content: fencedBlock(fence, languageId, turn.answer) } satisfies InputItem]);
}

function conversationFence(earlier: readonly EditTurn[]): string {
  return fenceFor(earlier.map((turn) => `${turn.prompt}\n${turn.answer}`).join("\n"));
}
