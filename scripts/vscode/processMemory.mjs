// Samples the resident memory of this process's whole tree (code-server, extension host, Chromium),
// so a run can report its peak. Linux only; elsewhere it reports nothing.
import { execFileSync } from "node:child_process";

function treeRssKiB(rootPid) {
  const table = execFileSync("ps", ["-eo", "pid=,ppid=,rss="], { encoding: "utf8" });
  const children = new Map();
  const rss = new Map();
  for (const line of table.split("\n")) {
    const [pid, ppid, kib] = line.trim().split(/\s+/).map(Number);
    if (!pid) continue;
    rss.set(pid, kib);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(pid);
  }
  let total = 0;
  const stack = [rootPid];
  while (stack.length > 0) {
    const pid = stack.pop();
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

export function startMemorySampler(intervalMs = 500) {
  let peakKiB = 0;
  const sample = () => {
    try {
      peakKiB = Math.max(peakKiB, treeRssKiB(process.pid));
    } catch {
      // no ps: no figure
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peakKiB > 0 ? `${(peakKiB / 1024 / 1024).toFixed(2)} GiB` : "unknown";
    },
  };
}
