// How long the history list takes to open with 1,000 saved conversations: a fresh HistoryStore reading
// the index and checking it against the folder, as when the panel opens. Not a timed test; the goal is
// recorded beside the figure. Usage: npm run bench:history -- [--json]
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { FileStorage } from "../../src/chat/fileStorage";
import { HistoryStore } from "../../src/chat/historyStore";
import { sampleConversation } from "../../test/fixtures/chat/sampleConversations";

const CONVERSATIONS = 1000;
const TURNS_PER_CONVERSATION = 10;
const RUNS = 15;
const GOAL_MS = 100;

async function main(): Promise<void> {
  const json = process.argv.includes("--json");
  const folder = await mkdtemp(path.join(tmpdir(), "relay-chat-bench-history-"));
  try {
    await mkdir(path.join(folder, "conversations"), { recursive: true });
    for (let index = 0; index < CONVERSATIONS; index += 1) {
      const conversation = sampleConversation(index, TURNS_PER_CONVERSATION, 500);
      await writeFile(path.join(folder, "conversations", `${conversation.id}.json`), JSON.stringify(conversation));
    }
    // The first list rebuilds the index from the files; the timed runs then load it as the panel would.
    const built = await new HistoryStore(new FileStorage(folder)).list();
    if (built.conversations.length !== CONVERSATIONS) throw new Error(`expected ${CONVERSATIONS} conversations, listed ${built.conversations.length}`);

    const timings: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const started = performance.now();
      const listing = await new HistoryStore(new FileStorage(folder)).list();
      timings.push(performance.now() - started);
      if (listing.conversations.length !== CONVERSATIONS) throw new Error("the index lost conversations");
    }
    timings.sort((a, b) => a - b);
    const median = timings[Math.floor(timings.length / 2)];
    const result = {
      indexLoadMsFor1000: round(median),
      indexLoadMsWorst: round(timings[timings.length - 1]),
      indexLoadMsBest: round(timings[0]),
      goalMs: GOAL_MS,
      withinGoal: median < GOAL_MS,
      conversations: CONVERSATIONS,
      runs: RUNS,
    };
    if (!json) {
      process.stdout.write(`History index load, ${CONVERSATIONS} conversations: median ${result.indexLoadMsFor1000} ms, worst ${result.indexLoadMsWorst} ms (goal < ${GOAL_MS} ms)\n`);
    }
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
