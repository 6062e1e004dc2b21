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

/**
 * From this many turns, an open sends every older turn brief, however short: each whole view is a few hundred
 * bytes of receipt and answer, and 1,000 short turns came to one 907 KB message (the page asks for them as they
 * come near, and the rest when idle, as for long answers).
 */
export const BRIEF_EVERY_OLDER_TURN_FROM = 200;

/** A turn that is still running, or has nothing worth leaving out, goes whole (`turnCount`: the conversation's). */
export function worthBriefing(turn: TurnView, turnCount = 0): boolean {
  if (turn.streaming || turn.outcome === "in_progress") return false;
  if (turnCount >= BRIEF_EVERY_OLDER_TURN_FROM) return turn.answerText !== "" || turn.toolCalls.length > 0 || turn.receipts.length > 0 || turn.reasoningSummaries.length > 0;
  return turn.answerText.length + turn.toolCalls.length * 200 + turn.receipts.length * 300 > 1000;
}

function countLines(text: string): number {
  let lines = text === "" ? 0 : 1;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) lines += 1;
  return lines;
}
