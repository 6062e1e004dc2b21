import { outputTextOf } from "../relay/accumulate";
import type { RequestPurpose, Turn } from "./conversation";

// The one definition of a turn's answer text, used by the panel, the exports and the live stream alike:
// the text of every request's output in order (a request that did not finish shows what arrived), with
// a blank line between the answers of successive requests (a tool call's follow-up, say). A Continue goes
// on mid-sentence, so its text is joined without one. A Retry with a larger budget asks the same question
// again: once it has text, that text replaces the answer it retried.

export function answerTextOf(turn: Turn): string {
  let text = "";
  for (const request of turn.requests) {
    const piece = outputTextOf(request.output);
    if (piece === "") continue;
    text = request.purpose === "retry_larger" ? piece : text + answerSeparator(text, request.purpose) + piece;
  }
  return text;
}

/**
 * What the live stream puts between the answer text so far and the first text of a request with this
 * purpose: a blank line, or nothing (no text yet, or a Continue). Appended deltas then add up to
 * `answerTextOf`, except after a Retry, whose settled text replaces the earlier attempt when it ends.
 */
export function answerSeparator(textSoFar: string, purpose: RequestPurpose): string {
  return textSoFar === "" || purpose === "continue" ? "" : "\n\n";
}
