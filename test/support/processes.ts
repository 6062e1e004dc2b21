// Watching processes the tests start through run_command: their ids arrive in a file, and "alive" must not
// count a zombie, which a killed orphan may stay until something reaps it.
import { promises as fs, readFileSync } from "node:fs";

export async function waitForNumberIn(file: string, timeoutMs = 5_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = await fs.readFile(file, "utf8").catch(() => "");
    if (/^\d+\n/.test(text)) return Number(text.trim());
    if (Date.now() > deadline) throw new Error(`no process id in ${file} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A killed process whose parent is gone may linger as a zombie until something reaps it; that counts as dead. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true;
  }
}
