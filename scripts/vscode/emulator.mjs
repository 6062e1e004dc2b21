// Runs the relay emulator (test/emulator/main.ts) as a child process for tests against a real VS Code.
import { spawn } from "node:child_process";
import { repoRoot } from "./paths.mjs";

/**
 * Starts the emulator on a free loopback port; resolves to { baseUrl, key, controlUrl, stop() }.
 * controlUrl (test/emulator/controlServer.ts) lets in-host tests queue faults and read what the relay received.
 * `listsEndpointTypes: false`: the model list does not say which wire a model speaks (main.ts --no-endpoint-types).
 */
export function startEmulator({ timeoutMs = 20_000, profile, listsEndpointTypes = true } = {}) {
  const child = spawn(process.execPath, ["--require", "tsx/cjs", "test/emulator/main.ts", "--control", ...(profile ? ["--profile", profile] : []), ...(listsEndpointTypes ? [] : ["--no-endpoint-types"])], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk.toString();
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
      child.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill("SIGTERM");
    });
  return new Promise((resolve, reject) => {
    let stdout = "";
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`relay emulator did not report its address within ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`relay emulator exited (${code ?? signal}) before it was ready\n${stderr}`));
    });
    child.stdout.on("data", (chunk) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf("\n");
      if (newline < 0) return;
      clearTimeout(timer);
      try {
        const { baseUrl, key, controlUrl } = JSON.parse(stdout.slice(0, newline));
        resolve({ baseUrl, key, controlUrl, stop, pid: child.pid });
      } catch (error) {
        void stop();
        reject(new Error(`relay emulator printed an unexpected first line: ${stdout.slice(0, newline)} (${error})`));
      }
    });
  });
}
