import { spawn } from "node:child_process";
import path from "node:path";

const cliEntry = path.resolve(__dirname, "../../src/cli/main.ts");

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  firstStdoutAt: number | null;
  endedAt: number;
}

/**
 * Runs the CLI as a user does: a separate process, with only PATH and the given variables in its environment, and
 * `standardInput` piped in; in `cwd` (the repository unless given: the CLI's workspace for rules files).
 */
export function runCli(args: string[], environment: Record<string, string | undefined>, standardInput = "", cwd = path.resolve(__dirname, "../..")): Promise<CliRun> {
  return new Promise((resolve) => {
    // Resolved here: from another working directory `--require tsx/cjs` would not be found.
    const child = spawn(process.execPath, ["--require", require.resolve("tsx/cjs"), cliEntry, ...args], {
      env: { PATH: process.env.PATH, ...environment },
      cwd,
    });
    // Standard input is a pipe that ends (empty unless given), as in a script: never a terminal.
    child.stdin.end(standardInput);
    let stdout = "";
    let stderr = "";
    let firstStdoutAt: number | null = null;
    child.stdout.on("data", (chunk: Buffer) => {
      firstStdoutAt ??= Date.now();
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr, firstStdoutAt, endedAt: Date.now() }));
  });
}
