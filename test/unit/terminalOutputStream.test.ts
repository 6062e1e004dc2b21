import assert from "node:assert/strict";
import { readFromStart } from "../../src/host/context/terminalOutputStream";

// The race behind "the Terminal chip lost the first command's output", without a terminal: a stream built the
// way VS Code 1.139 builds TerminalShellExecution.read() (extHostTerminalShellIntegration.ts: each read() makes
// an AsyncIterableObject whose executor, run in a microtask, registers the emitter the data goes to), and the
// extension host's handling of one message batch (start, data, end, one after the other with no microtask
// between them). The real thing is tested in code-server: test/integration/workspaceContext.test.ts.

class ShellExecutionStandIn {
  private readonly emitters: Array<(data: string) => void> = [];
  private ended = false;
  private readonly endWaiters: Array<() => void> = [];

  read(): AsyncIterable<string> {
    const results: string[] = [];
    let done = false;
    let wake: (() => void) | null = null;
    queueMicrotask(() => {
      // As AsyncIterableObject's executor: the emitter exists only once this microtask ran.
      this.emitters.push((data) => {
        results.push(data);
        wake?.();
      });
      const finish = () => {
        done = true;
        wake?.();
      };
      if (this.ended) finish();
      else this.endWaiters.push(finish);
    });
    return {
      [Symbol.asyncIterator]: () => ({
        next: async (): Promise<IteratorResult<string>> => {
          while (results.length === 0 && !done) await new Promise<void>((resolve) => (wake = resolve));
          const value = results.shift();
          return value === undefined ? { done: true, value: undefined } : { done: false, value };
        },
      }),
    };
  }

  emit(data: string): void {
    for (const emitter of this.emitters) emitter(data);
  }

  end(): void {
    this.ended = true;
    for (const waiter of this.endWaiters) waiter();
  }
}

async function readAll(stream: AsyncIterable<string>): Promise<string> {
  let text = "";
  for await (const data of stream) text += data;
  return text;
}

/** Start, output and end handled in one go, as the extension host handles one message batch. */
function quickCommand(read: (execution: ShellExecutionStandIn) => AsyncIterable<string>): Promise<string> {
  const execution = new ShellExecutionStandIn();
  const reading = readAll(read(execution));
  execution.emit("\u001b]633;C\u0007wrote\r\n");
  execution.emit("bad.ts\r\n");
  execution.end();
  return reading;
}

describe("terminal output from the command's start", () => {
  it("loses a quick command's output with read() alone (the stand-in shows the race)", async () => {
    assert.equal(await quickCommand((execution) => execution.read()), "");
  });

  it("keeps it when read() listens at once", async () => {
    assert.equal(await quickCommand(readFromStart), "\u001b]633;C\u0007wrote\r\nbad.ts\r\n");
  });

  it("reads output that comes later as before, and gives queueMicrotask back as it was", async () => {
    const original = globalThis.queueMicrotask;
    const execution = new ShellExecutionStandIn();
    const reading = readAll(readFromStart(execution));
    assert.equal(globalThis.queueMicrotask, original);
    await new Promise((resolve) => setTimeout(resolve, 5));
    execution.emit("later\r\n");
    execution.end();
    assert.equal(await reading, "later\r\n");
  });

  it("gives queueMicrotask back when read() throws", () => {
    const original = globalThis.queueMicrotask;
    assert.throws(() => readFromStart({ read: () => { throw new Error("terminal gone"); } }), /terminal gone/);
    assert.equal(globalThis.queueMicrotask, original);
  });
});
