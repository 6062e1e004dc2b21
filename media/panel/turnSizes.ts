import type { BriefTurnSize, TurnView } from "../../src/panel/protocol";
import { estimatedAnswerPixels } from "./answerView";

// What a turn not rendered keeps: about the room it takes (a brief turn's placeholder, a turn stowed when a
// conversation opens), and the text find and copy see while it is stowed (TurnElement.stow).

/** The room a brief turn's answer, tool call cards and receipt line will take, about. */
export function placeholderPixels(size: BriefTurnSize): number {
  return estimatedAnswerPixels(size.answerChars, size.answerLines) + size.toolCalls * 36 + (size.receipts > 0 ? 28 : 0);
}

/**
 * About the height of a turn not rendered yet: its padding, its message (about 48 characters a line in a side
 * bar), and its answer, tool cards and receipt line. Where it is wrong, the turn takes its real height as it
 * comes near, and the reader's place is kept (scrollPlace.ts).
 */
export function estimatedTurnPixels(turn: TurnView): number {
  const messageLines = turn.userText.split("\n").reduce((lines, line) => lines + Math.max(1, Math.ceil(line.length / 48)), 0);
  const rest = turn.brief ?? { answerChars: turn.answerText.length, answerLines: turn.answerText === "" ? 0 : turn.answerText.split("\n").length, toolCalls: turn.toolCalls.length, receipts: turn.receipts.length };
  return 20 + 26 + messageLines * 18 + placeholderPixels(rest);
}

/**
 * Only a finished, whole turn without a summary is stowed: a running one changes, a summary is what a summarized
 * run shows, and a brief one (a reopened conversation's) is already light until it is filled in.
 */
export function stowable(turn: TurnView): boolean {
  return isFinished(turn) && turn.summary === undefined && turn.brief === undefined;
}

/** A stowed turn's text: what find looks in and what a copy across it takes. */
export function findableText(turn: TurnView): string {
  return turn.answerText === "" ? turn.userText : `${turn.userText}\n\n${turn.answerText}`;
}

/** A turn is finished once nothing more will arrive for it. */
export function isFinished(turn: TurnView): boolean {
  return !turn.streaming && turn.outcome !== "in_progress";
}
