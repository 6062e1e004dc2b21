import { splitIntoWordDeltas } from "./tokenCounting";

const TOPICS = ["streaming", "history", "tools", "billing", "errors", "latency", "rendering", "storage"];
const WORDS = [
  "the", "relay", "sends", "each", "delta", "as", "soon", "as", "it", "is", "ready", "while", "client",
  "keeps", "a", "snapshot", "of", "every", "item", "and", "never", "guesses", "success", "from", "status",
  "alone", "so", "that", "users", "see", "exactly", "what", "happened", "in", "order",
];

function sentence(seed: number, length: number): string {
  const words: string[] = [];
  for (let index = 0; index < length; index += 1) words.push(WORDS[(seed * 7 + index * 3) % WORDS.length]);
  const text = words.join(" ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function section(index: number): string {
  const topic = TOPICS[index % TOPICS.length];
  const blocks = [`## Part ${index + 1}: ${topic}`, `${sentence(index, 12)} ${sentence(index + 1, 9)} **Note:** ${sentence(index + 2, 6)}`];
  blocks.push([`- ${sentence(index + 3, 5)}`, `- ${sentence(index + 4, 6)}`, `- \`${topic}\` ${sentence(index + 5, 4)}`].join("\n"));
  if (index % 3 === 2) {
    blocks.push(["```ts", `const ${topic}Count = ${index};`, `console.log(${topic}Count);`, "```"].join("\n"));
  }
  if (index % 4 === 3) {
    blocks.push(["| item | value |", "| --- | --- |", `| ${topic} | ${index} |`].join("\n"));
  }
  return blocks.join("\n\n");
}

/**
 * Deterministic markdown of about `targetWords` word deltas: whole sections (headings, lists, code,
 * tables) while they fit, then a closing paragraph padded to the target, so no fence is left open.
 */
export function longMarkdownAnswer(targetWords: number): string {
  const parts: string[] = [];
  let words = 0;
  for (let index = 0; ; index += 1) {
    const next = section(index);
    const nextWords = splitIntoWordDeltas(`\n\n${next}`).length;
    if (words + nextWords > targetWords) break;
    parts.push(next);
    words += nextWords;
  }
  const closing: string[] = [];
  let fillerIndex = 0;
  const remaining = targetWords - words;
  while (closing.length < remaining) {
    closing.push(WORDS[fillerIndex % WORDS.length]);
    fillerIndex += 1;
  }
  if (closing.length > 0) parts.push(`${closing.join(" ")}.`);
  return parts.join("\n\n");
}
