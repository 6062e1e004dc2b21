import type { TurnView } from "../protocol";

// What an older turn of a long conversation is sent as when the conversation opens (see TurnView.brief):
// the person's message and the turn's state, without the answer text, tool calls, reasoning summaries and
// receipts, which are most of its bytes. Opening 200 turns then posts and parses about what 10 cost; the
// page asks for the rest as the turns come near. Pure, so it is tested on Node.

/** The newest turns of an open are always sent whole: what is on screen first needs no second trip. */
export const WHOLE_TURNS_AT_OPEN = 10;

export function briefTurnView(turn: TurnView): TurnView {
  return {
    ...turn,
    answerText: "",
    toolCalls: [],
    receipts: [],
    reasoningSummaries: [],
    brief: { answerChars: turn.answerText.length, answerLines: countLines(turn.answerText), toolCalls: turn.toolCalls.length, receipts: turn.receipts.length },
  };
}

/** A turn that is still running, or has nothing worth leaving out, goes whole. */
export function worthBriefing(turn: TurnView): boolean {
  if (turn.streaming || turn.outcome === "in_progress") return false;
  return turn.answerText.length + turn.toolCalls.length * 200 + turn.receipts.length * 300 > 1000;
}

function countLines(text: string): number {
  let lines = text === "" ? 0 : 1;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) lines += 1;
  return lines;
}
