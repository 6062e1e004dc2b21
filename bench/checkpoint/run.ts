// What a checkpoint of a 10,000-file workspace costs: the first one (every file hashed into a new shadow
// repository) and the next one after a few files changed (only changed files are read again). Not a timed
// test; the goals are recorded beside the figures. Usage: npm run bench:checkpoint -- [--json]
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import * as os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { FolderCheckpoints } from "../../src/tools/checkpointStore";

const FILES = 10_000;
const FILES_PER_FOLDER = 100;
const CHANGED_FILES = 20;
const FIRST_GOAL_MS = 1000;
const RUNS = 5;

async function main(): Promise<void> {
  const json = process.argv.includes("--json");
  const root = await mkdtemp(path.join(os.tmpdir(), "relay-chat-bench-checkpoint-"));
  try {
    const workspace = path.join(root, "workspace");
    for (let folder = 0; folder < FILES / FILES_PER_FOLDER; folder += 1) {
      const directory = path.join(workspace, "src", `module${folder}`);
      await mkdir(directory, { recursive: true });
      for (let file = 0; file < FILES_PER_FOLDER; file += 1) {
        await writeFile(path.join(directory, `file${file}.ts`), sourceText(folder, file, 0));
      }
    }
    // A typical ignored folder: it must cost nothing.
    await mkdir(path.join(workspace, "node_modules", "dependency"), { recursive: true });
    await writeFile(path.join(workspace, "node_modules", "dependency", "index.js"), "module.exports = 1;\n");
    await writeFile(path.join(workspace, ".gitignore"), "node_modules/\n");

    // Each run starts from an empty shadow repository (the first checkpoint) and then changes a few files.
    const firstTimings: number[] = [];
    const nextTimings: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const checkpoints = new FolderCheckpoints(path.join(root, `storage${run}`), workspace);
      let started = performance.now();
      const first = await checkpoints.take();
      firstTimings.push(performance.now() - started);
      for (let file = 0; file < CHANGED_FILES; file += 1) await writeFile(path.join(workspace, "src", `module${file}`, "file0.ts"), sourceText(file, 0, run + 1));
      started = performance.now();
      const next = await checkpoints.take();
      nextTimings.push(performance.now() - started);
      const changed = (await checkpoints.diff(first, next)).length;
      if (changed !== CHANGED_FILES) throw new Error(`expected ${CHANGED_FILES} changed files, found ${changed}`);
    }
    const firstMs = median(firstTimings);
    const nextMs = median(nextTimings);

    const result = {
      firstCheckpointMs10k: Math.round(firstMs),
      nextCheckpointMs10k: Math.round(nextMs),
      changedFiles: CHANGED_FILES,
      files: FILES,
      runs: RUNS,
      firstCheckpointMsWorst: Math.round(Math.max(...firstTimings)),
      // The machine's load while measuring: on a shared machine the figures grow with it.
      loadAverage: Math.round(os.loadavg()[0] * 10) / 10,
      cpus: os.cpus().length,
      firstGoalMs: FIRST_GOAL_MS,
      withinGoal: firstMs <= FIRST_GOAL_MS,
    };
    if (!json) process.stdout.write(`Checkpoint of ${FILES} files: first ${result.firstCheckpointMs10k} ms (median of ${RUNS}) (goal <= ${FIRST_GOAL_MS} ms), next after ${CHANGED_FILES} changes ${result.nextCheckpointMs10k} ms\n`);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

function sourceText(folder: number, file: number, version: number): string {
  return `export const value${folder}_${file} = ${version};\n`.repeat(20);
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
