import { parentPort } from "node:worker_threads";
import { spawnGit } from "./checkpointGit";
import type { HelperReply, HelperRequest, StatRequest } from "./checkpointHelper";
import { fastImportArguments, importBlobs } from "./checkpointImport";
import { kindRetry, statChunks } from "./checkpointStat";

// The checkpoint helper thread's code (see checkpointHelper): it answers each request by taking chunks of a
// list of paths' stat data with the other thread (checkpointStat), or by streaming the files it is given to a
// git fast-import of its own. Built as its own bundle (dist/checkpointWorker.js).

/** The last list of each slot (a workspace folder), kept so the next checkpoint need not send it again. */
const lists = new Map<number, { version: number; paths: readonly string[] }>();

function reply(message: HelperReply): void {
  parentPort?.postMessage(message);
}

/** Takes chunks of the list with the other thread; a path it cannot look at is marked to be taken again there. */
function stat(request: StatRequest): number {
  const { slot, version, paths: sent, counter, fields, forget } = request;
  if (forget !== undefined) lists.delete(forget);
  if (sent && slot !== undefined) lists.set(slot, { version, paths: sent });
  const kept = slot === undefined ? undefined : lists.get(slot);
  const paths = sent ?? (kept?.version === version ? kept.paths : undefined);
  // Not expected (the other side sends a list it does not know to be kept here): it then takes every chunk itself.
  if (!paths) throw new Error("the helper thread does not keep this list of paths");
  return statChunks(paths, counter, fields, (offset) => (fields[offset] = kindRetry));
}

async function answer(request: HelperRequest & { id: number }): Promise<void> {
  const { id } = request;
  try {
    if (request.op === "stat") return reply({ id, taken: stat(request) });
    const child = spawnGit(request.repository, fastImportArguments(request.marksFile), { onStart: (gitPid) => reply({ id, gitPid }) });
    reply({ id, result: await importBlobs({ child, marksFile: request.marksFile }, request.files) });
  } catch (error) {
    reply({ id, error: (error as Error).message });
  }
}

parentPort?.on("message", (request: HelperRequest & { id: number }) => void answer(request));
reply({ ready: true });
