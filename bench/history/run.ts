// How long the history list takes to open with 1,000 saved conversations: a fresh HistoryStore reading
// the index and checking it against the folder, as when the panel opens. Then a 40 MB conversation: how
// long a save while an answer streams takes (it appends the turn being answered, whatever the size of the
// rest), and how long opening it takes. Not a timed test; the goals are recorded beside the figures.
// Usage: npm run bench:history -- [--json]
import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { Conversation, Turn } from "../../src/chat/conversation";
import { FileStorage } from "../../src/chat/fileStorage";
import { HistoryStore } from "../../src/chat/historyStore";
import { sampleConversation } from "../../test/fixtures/chat/sampleConversations";

const CONVERSATIONS = 1000;
const TURNS_PER_CONVERSATION = 10;
const RUNS = 15;
const GOAL_MS = 100;
/** 400 turns of 100 KB answers: a 40 MB conversation file. */
const LARGE_TURNS = 400;
const LARGE_ANSWER_CHARS = 100_000;
const STREAMING_SAVES = 30;
const OPENS = 5;
const STREAMING_SAVE_GOAL_MS = 5;
const OPEN_GOAL_MS = 300;

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
    const large = await largeConversationFigures(path.join(folder, "large"));
    const result = {
      indexLoadMsFor1000: round(median),
      indexLoadMsWorst: round(timings[timings.length - 1]),
      indexLoadMsBest: round(timings[0]),
      goalMs: GOAL_MS,
      withinGoal: median < GOAL_MS,
      conversations: CONVERSATIONS,
      runs: RUNS,
      ...large,
      streamingSaveGoalMs: STREAMING_SAVE_GOAL_MS,
      openGoalMs: OPEN_GOAL_MS,
    };
    if (!json) {
      process.stdout.write(`History index load, ${CONVERSATIONS} conversations: median ${result.indexLoadMsFor1000} ms, worst ${result.indexLoadMsWorst} ms (goal < ${GOAL_MS} ms)\n`);
    }
    if (!json) {
      process.stdout.write(
        `40 MB conversation (${large.largeConversationMB} MB): streaming save median ${large.streamingSaveMs40MB} ms wall, ${large.streamingSaveCpuMs40MB} ms CPU (goal <= ${STREAMING_SAVE_GOAL_MS} ms); open median ${large.openMs40MB} ms (goal <= ${OPEN_GOAL_MS} ms; reading and parsing the file alone ${large.openFloorMs40MB} ms)\n`,
      );
    }
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Saves while an answer streams into a 40 MB conversation, then opens it in a fresh store (another window). */
async function largeConversationFigures(folder: string) {
  const conversation: Conversation = sampleConversation(99_999, LARGE_TURNS, LARGE_ANSWER_CHARS);
  const writer = new HistoryStore(new FileStorage(folder), undefined, { compactAtBytes: 0 });
  await writer.save(conversation);
  const size = JSON.stringify(conversation).length;
  const streaming: Turn = structuredClone(conversation.turns[conversation.turns.length - 1]);
  streaming.id = "turn_streaming";
  streaming.parentId = conversation.activeTurnId;
  streaming.outcome = { kind: "in_progress" };
  streaming.requests[0].outcome = { kind: "in_progress" };
  conversation.turns.push(streaming);
  conversation.activeTurnId = streaming.id;
  const saves: number[] = [];
  const saveCpu: number[] = [];
  for (let save = 0; save < STREAMING_SAVES; save += 1) {
    // As turnRequest.ts does every 2 s: the answer so far (a few KB more each time) into the running turn.
    const content = streaming.requests[0].output[0] as unknown as { content: Array<{ text: string }> };
    content.content[0].text = "streamed text ".repeat(300 * (save + 1));
    conversation.updatedAt += 1;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await writer.save(conversation, [streaming.id]);
    saves.push(performance.now() - started);
    const cpu = process.cpuUsage(cpuBefore);
    saveCpu.push((cpu.user + cpu.system) / 1000);
  }
  const opens: number[] = [];
  const floors: number[] = [];
  const snapshot = path.join(folder, "conversations", `${conversation.id}.json`);
  for (let open = 0; open < OPENS; open += 1) {
    // The floor, in the same run: reading the snapshot file and JSON.parse, nothing else.
    const floorStarted = performance.now();
    JSON.parse(await readFile(snapshot, "utf8"));
    floors.push(performance.now() - floorStarted);
    const started = performance.now();
    const opened = await new HistoryStore(new FileStorage(folder)).open(conversation.id);
    opens.push(performance.now() - started);
    if (!opened.ok || opened.conversation.turns.length !== LARGE_TURNS + 1) throw new Error("the large conversation did not open whole");
  }
  writer.dispose();
  return {
    largeConversationMB: round(size / 1e6),
    streamingSaveMs40MB: round(medianOf(saves)),
    streamingSaveCpuMs40MB: round(medianOf(saveCpu)),
    openMs40MB: round(medianOf(opens)),
    openFloorMs40MB: round(medianOf(floors)),
  };
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
