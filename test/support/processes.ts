// Watching processes the tests start through run_command: their ids arrive in a file, and "alive" must not
// count a zombie, which a killed orphan may stay until something reaps it.
import { execFileSync } from "node:child_process";
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

/**
 * Waits until every process in `pids` is gone, for at most `timeoutMs`: a killed process dies when the kernel gets
 * round to it, which on a loaded machine is not the moment the kill returns. Throws naming the survivors.
 */
export async function waitUntilDead(pids: number[], what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive = pids.filter(isAlive);
    if (alive.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${what}: process ${alive.join(", ")} still alive after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The live processes (not zombies) whose command line contains `text`: a subshell a command forked keeps the
 * command's line, so a unique path in it finds every process the command started, even one whose id it never wrote.
 */
export function processesMentioning(text: string): number[] {
  const table = execFileSync("ps", ["-A", "-o", "pid=,stat=,args="], { encoding: "utf8" });
  const own = new Set([process.pid]);
  return table
    .split("\n")
    .map((line) => /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null && !match[2].startsWith("Z") && match[3].includes(text) && !own.has(Number(match[1])))
    .map((match) => Number(match[1]));
}

/** Waits until no live process mentions `text` (see processesMentioning), for at most `timeoutMs`. */
export async function waitUntilNoProcessMentions(text: string, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive = processesMentioning(text);
    if (alive.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${what}: process ${alive.join(", ")} still alive after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
