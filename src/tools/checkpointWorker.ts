import { parentPort } from "node:worker_threads";
import { spawnGit } from "./checkpointGit";
import type { HelperReply, HelperRequest } from "./checkpointHelper";
import { fastImportArguments, importBlobs } from "./checkpointImport";
import { statFieldCount, statInto } from "./checkpointStat";

// The checkpoint helper thread's code (see checkpointHelper): it answers each request with the stat data of the
// paths it is given, or by streaming the files it is given to a git fast-import of its own. Built as its own
// bundle (dist/checkpointWorker.js).

function reply(message: HelperReply, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(message, transfer);
}

async function answer(request: HelperRequest & { id: number }): Promise<void> {
  const { id } = request;
  try {
    if (request.op === "stat") {
      const fields = new Float64Array(request.paths.length * statFieldCount);
      request.paths.forEach((absolute, index) => statInto(absolute, fields, index * statFieldCount));
      return reply({ id, fields }, [fields.buffer]);
    }
    const child = spawnGit(request.repository, fastImportArguments(request.marksFile), { onStart: (gitPid) => reply({ id, gitPid }) });
    reply({ id, result: await importBlobs({ child, marksFile: request.marksFile }, request.files) });
  } catch (error) {
    reply({ id, error: (error as Error).message });
  }
}

parentPort?.on("message", (request: HelperRequest & { id: number }) => void answer(request));
reply({ ready: true });
