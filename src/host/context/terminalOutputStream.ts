// Reading a terminal command's output through VS Code's shell integration without losing its first part. No
// vscode import: the execution is passed in, so the unit tests can show the race with a stand-in built the way
// VS Code builds the stream.

/**
 * The execution's output from its start, the output of a quick command included. VS Code's read() (1.139,
 * extHostTerminalShellIntegration.ts: ShellExecutionDataStream.createIterable, an AsyncIterableObject) starts
 * listening in a microtask. A quick command's start, output and end reach the extension host in one message
 * batch, handled one after the other without a microtask between them: the output is emitted while nobody
 * listens yet, and read() gives nothing although the terminal showed it ("printf … > bad.ts && echo wrote && ls"
 * in a new terminal). Run synchronously during read(), that microtask listens before the output is handled;
 * nothing else runs meanwhile, and when VS Code listens at once or schedules otherwise this changes nothing.
 */
export function readFromStart(execution: { read(): AsyncIterable<string> }): AsyncIterable<string> {
  const scheduled = globalThis.queueMicrotask;
  globalThis.queueMicrotask = (callback) => {
    try {
      callback();
    } catch (error) {
      // As a microtask would: the error is reported, the caller goes on.
      scheduled(() => {
        throw error;
      });
    }
  };
  try {
    return execution.read();
  } finally {
    globalThis.queueMicrotask = scheduled;
  }
}
