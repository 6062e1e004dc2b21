import { buildTextStream, seededRandom } from "../client/benchStream";

// The host benchmark's workload, built the same way in every process: a Responses stream whose answer
// has a given size, in text deltas of a word each (like a real model's tokens), with a paragraph break
// now and then, so the answer is ordinary markdown.

export interface AnswerStream {
  bytes: Buffer;
  eventCount: number;
  text: string;
}

export function buildAnswerStream(answerCharacters: number, seed = 42): AnswerStream {
  const random = seededRandom(seed);
  const words = ["relay", "stream", "token", "answer", "the", "of", "panel", "cost", "flat", "and", "a", "host"];
  const deltas: string[] = [];
  let length = 0;
  while (length < answerCharacters) {
    const word = words[Math.floor(random() * words.length)];
    const delta = random() < 0.02 ? `${word}.\n\n` : ` ${word}`;
    deltas.push(delta);
    length += delta.length;
  }
  return buildTextStream(deltas, `resp_bench${answerCharacters}`);
}

/** The model id names the answer size: "answer-6000" streams a 6,000-character answer. */
export function answerCharactersOf(model: string): number {
  const match = /^answer-(\d+)$/.exec(model);
  return match ? Number(match[1]) : 6000;
}
