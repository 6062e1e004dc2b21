// `npm run bench:session -- --json`: a live session in a real VS Code (code-server) in Chromium, against a
// relay on the same machine (bench/session/sessionRelay.ts): 20 turns to warm up, 100 more short answers,
// then one 60 KB answer streamed in 1,500 deltas, then the conversation opened again from the history.
// `npm run build` first (the extension is loaded from this folder as in development).
//
// Figures (issue 39):
// - enterToRequestMs: Enter in the panel's message box -> the relay has the request (median), beside a bare
//   `fetch` from Node to the same relay (bareFetchMs): the extension's and VS Code's own path is the difference.
// - firstDeltaToPanelMs: the relay wrote a turn's first delta -> its text is in the panel's DOM (p50, p95,
//   over every turn; the page's and the relay's clocks are the same machine's wall clock).
// - framesOver50Ms: frames longer than 50 ms in the panel while the 60 KB answer streams (requestAnimationFrame
//   gaps in the webview), and the longest.
// - domPer100Turns: elements in the webview's document, growth per 100 turns after the warm-up.
// - rendererMbPer100Turns: resident memory of Chromium's renderer processes, after a forced GC, per 100 turns.
// - jsHeapMbPer100Turns: the renderer's JS heap after a forced GC (the workbench and the webview share the
//   process), per 100 turns.
// - extensionHostMbPer100Turns: the extension host's resident memory per 100 turns (no GC can be forced there).
// - historyOpenMs: from clicking the conversation in the history to its last turn in the panel.
//
// Goals: enterToRequest <= 30 ms over the bare fetch; first delta p50 <= 17 ms, p95 <= 33 ms; 0 frames over
// 50 ms; DOM <= +1,000 and renderer <= +10 MB per 100 turns; JS heap <= 5 MB; extension host <= +10 MB per
// 100 turns; history open <= 200 ms. Options: --turns N (measured turns, default 100), --warmup N (20), --json.
// To look inside: RELAY_CHAT_BENCH_PROFILE=name writes CPU profiles of the page (name.stream.cpuprofile,
// name.open.cpuprofile), RELAY_CHAT_BENCH_TRACE=name Chromium traces of the same two (name.stream.json,
// name.open.json) and, in the summary, CPU times from them (streamLongTasks, historyOpenHandledCpuMs).
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { launchBrowser, remoteUri, workbenchUrl } from "../../scripts/vscode/browser.mjs";
import { startCodeServer } from "../../scripts/vscode/codeServer.mjs";
import { isInstalled } from "../../scripts/vscode/installCodeServer.mjs";
import { repoRoot } from "../../scripts/vscode/paths.mjs";

const { values: options } = parseArgs({
  options: {
    json: { type: "boolean", default: false },
    turns: { type: "string", default: "100" },
    warmup: { type: "string", default: "20" },
  },
});
const MEASURED_TURNS = Number(options.turns);
const WARMUP_TURNS = Number(options.warmup);
const LONG_ANSWER_REQUEST = "Please write the long answer";
const say = (message) => process.stderr.write(`[bench:session] ${message}\n`);

function startRelay() {
  const child = spawn(process.execPath, ["--require", "tsx/cjs", path.join(repoRoot, "bench", "session", "sessionRelay.ts")], { cwd: repoRoot, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let buffered = "";
    child.once("exit", (code) => reject(new Error(`the bench relay exited (${code})`)));
    child.stdout.on("data", (chunk) => {
      buffered += chunk.toString();
      if (!buffered.includes("\n")) return;
      const { port } = JSON.parse(buffered.split("\n")[0]);
      resolve({ url: `http://127.0.0.1:${port}`, stop: () => child.kill("SIGTERM") });
    });
  });
}

/** pid -> { ppid, rssKiB, args } for every process. */
function processTable() {
  const table = new Map();
  for (const line of execFileSync("ps", ["-eo", "pid=,ppid=,rss=,args="], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 }).split("\n")) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    if (match) table.set(Number(match[1]), { ppid: Number(match[2]), rssKiB: Number(match[3]), args: match[4] });
  }
  return table;
}

/** Resident MB of this process's descendants whose command line matches. */
function descendantsMb(pattern) {
  const table = processTable();
  let kib = 0;
  for (const entry of table.values()) {
    if (!pattern.test(entry.args)) continue;
    for (let parent = entry.ppid, hops = 0; parent > 1 && hops < 20; parent = table.get(parent)?.ppid ?? 0, hops += 1) {
      if (parent === process.pid) {
        kib += entry.rssKiB;
        break;
      }
    }
  }
  return kib / 1024;
}

/** CPU seconds used so far by this process's descendants, by kind (renderer, GPU, extension host, ...). */
function descendantsCpuSeconds() {
  const table = processTable();
  const ticks = {};
  for (const [pid, entry] of table) {
    let isOurs = false;
    for (let parent = entry.ppid, hops = 0; parent > 1 && hops < 20; parent = table.get(parent)?.ppid ?? 0, hops += 1) {
      if (parent === process.pid) {
        isOurs = true;
        break;
      }
    }
    if (!isOurs) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // ended, or not Linux
    }
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const kind = processKind(entry.args);
    ticks[kind] = (ticks[kind] ?? 0) + Number(fields[11]) + Number(fields[12]);
  }
  return Object.fromEntries(Object.entries(ticks).map(([kind, count]) => [kind, count / 100]));
}

function processKind(args) {
  if (/--type=extensionHost|extensionHostProcess/.test(args)) return "extensionHost";
  if (/--type=renderer/.test(args)) return "renderer";
  if (/--type=gpu-process/.test(args)) return "gpu";
  if (/--type=/.test(args)) return "otherChromium";
  if (/sessionRelay/.test(args)) return "relay";
  if (/chrom/i.test(args)) return "browser";
  return "codeServer";
}

const percentile = (values, fraction) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
};
const median = (values) => percentile(values, 0.5);
const round = (value, digits = 1) => (value === null ? null : Number(value.toFixed(digits)));

/** Runs in the webview's document: notes when each turn's marker text is in the DOM, when Enter was pressed, and long frames on demand. */
function instrumentPanel() {
  const bench = { markerAt: {}, enterAt: [], clickAt: null, gaps: null, messages: null };
  window.__sessionBench = bench;
  const list = document.querySelector(".turn-list");
  let doneFor = null;
  new MutationObserver(() => {
    const groups = list.children;
    const lastTurn = groups[groups.length - 1]?.lastElementChild;
    if (!lastTurn || lastTurn === doneFor) return;
    const match = /Marker\d+x/.exec(lastTurn.querySelector(".answer-slot")?.textContent ?? "");
    if (match === null) return;
    doneFor = lastTurn;
    bench.markerAt[match[0]] ??= performance.timeOrigin + performance.now();
  }).observe(list, { subtree: true, childList: true, characterData: true });
  document.addEventListener("click", () => (bench.clickAt = performance.now()), true);
  // While the history open is timed: each message from the host, when it was sent to the page and when the panel
  // had handled it (this listener runs after the panel's), so the open can be split into the host's part and the page's.
  window.addEventListener("message", (event) => {
    if (bench.messages === null) return;
    const size = typeof event.data === "object" && event.data !== null ? JSON.stringify(event.data).length : 0;
    bench.messages.push({ type: event.data?.type, arrivedAt: event.timeStamp, handledAt: performance.now(), size });
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) bench.enterAt.push(performance.timeOrigin + event.timeStamp);
  }, true);
}

/** Runs in the webview's document: resolves once the turn at `index` has its receipt. */
function receiptOf(index) {
  return new Promise((resolve) => {
    const list = document.querySelector(".turn-list");
    const turns = list.getElementsByClassName("turn");
    const ended = () => turns[index]?.getElementsByClassName("turn-receipt").length > 0;
    if (ended()) return resolve();
    const observer = new MutationObserver(() => {
      if (!ended()) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(list, { subtree: true, childList: true });
  });
}

function withTimeout(promise, ms, message) {
  let timer;
  return Promise.race([promise, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]).finally(() => clearTimeout(timer));
}

function startFrameWatch() {
  const bench = window.__sessionBench;
  bench.gaps = [];
  let last = performance.now();
  const step = (now) => {
    if (bench.gaps === null) return;
    bench.gaps.push(now - last);
    last = now;
    requestAnimationFrame(step);
  };
  requestAnimationFrame((now) => {
    last = now;
    requestAnimationFrame(step);
  });
}

function stopFrameWatch() {
  const bench = window.__sessionBench;
  const gaps = bench.gaps ?? [];
  bench.gaps = null;
  return gaps;
}

async function main() {
  if (!isInstalled()) throw new Error("code-server is not installed: run `node scripts/vscode/installCodeServer.mjs` first");
  if (!existsSync(path.join(repoRoot, "dist", "extension.js"))) throw new Error("the extension is not built: run `npm run build` first");
  const cleanups = [];
  const cleanup = async () => {
    for (const step of cleanups.reverse()) await Promise.resolve(step()).catch((error) => say(`cleanup: ${error}`));
  };
  try {
    const relay = await startRelay();
    cleanups.push(() => relay.stop());
    const workspace = mkdtempSync(path.join(os.tmpdir(), "relay-chat-bench-session-"));
    writeFileSync(path.join(workspace, "README.md"), "# bench:session\n");
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    const server = await startCodeServer({
      workspaceFolder: workspace,
      env: { RELAY_CHAT_BASE_URL: `${relay.url}/v1`, RELAY_CHAT_API_KEY: "sk-bench-session", RELAY_CHAT_MODEL: "session-bench" },
    });
    cleanups.push(() => server.stop());
    say(`code-server at ${server.url} (${(server.startMs / 1000).toFixed(1)} s)`);
    const browser = await launchBrowser();
    cleanups.push(() => browser.close());
    const { page, context } = browser;
    await page.goto(workbenchUrl(server.url, workspace, [["extensionDevelopmentPath", remoteUri(server.url, repoRoot)]]), { timeout: 120_000, waitUntil: "domcontentloaded" });
    await page.locator(".monaco-workbench").waitFor({ timeout: 120_000 });
    // The extension's view shows in the activity bar once the extension host has read it: slow on a loaded machine.
    await page.locator('.activitybar .action-label[aria-label^="Relay Chat"]').click({ timeout: 120_000 });
    const chat = page.frameLocator('iframe.webview.ready[src*="relay-chat"]').frameLocator("#active-frame");
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.waitFor({ timeout: 120_000 });
    const frame = await findPanelFrame(page);
    await frame.evaluate(instrumentPanel);
    const cdp = await context.newCDPSession(page);
    const send = chat.getByRole("button", { name: "Send", exact: true });
    let sent = 0;
    const sendTurn = async (text) => {
      await send.waitFor({ timeout: 120_000 });
      await message.fill(text);
      await message.press("Enter");
      sent += 1;
      // Older turns may be held back (no receipt in the page): the new turn's own receipt says it ended. Waited
      // for in the page by a MutationObserver: Playwright's locator waits poll the page every frame, computing
      // ARIA roles over the list, which took about a third of what the page allocated while the 60 KB answer
      // streamed; the measured page would then not be the one a person has.
      await withTimeout(frame.evaluate(receiptOf, sent - 1), 120_000, `turn ${sent} did not end`);
    };
    const stamp = Date.now().toString(36);
    const measure = async () => {
      await send.waitFor({ timeout: 120_000 });
      await new Promise((resolve) => setTimeout(resolve, 500));
      await cdp.send("HeapProfiler.collectGarbage");
      await cdp.send("HeapProfiler.collectGarbage");
      const heap = await cdp.send("Runtime.getHeapUsage");
      return {
        dom: await frame.evaluate(() => document.getElementsByTagName("*").length),
        jsHeapMb: heap.usedSize / 1024 / 1024,
        rendererMb: descendantsMb(/--type=renderer/),
        extensionHostMb: descendantsMb(/--type=extensionHost|extensionHostProcess/),
      };
    };

    const started = Date.now();
    for (let index = 1; index <= WARMUP_TURNS; index += 1) await sendTurn(`Question ${index} ${stamp}: what comes next?`);
    const before = await measure();
    say(`warm-up: ${WARMUP_TURNS} turns in ${((Date.now() - started) / 1000).toFixed(0)} s; ${JSON.stringify(before)}`);
    for (let index = WARMUP_TURNS + 1; index <= WARMUP_TURNS + MEASURED_TURNS; index += 1) await sendTurn(`Question ${index} ${stamp}: what comes next?`);
    const after = await measure();
    say(`${MEASURED_TURNS} more turns; ${JSON.stringify(after)}`);

    // RELAY_CHAT_BENCH_PROFILE=name: CPU profiles of the panel's page while the long answer streams
    // (name.stream.cpuprofile) and while the conversation opens from the history (name.open.cpuprofile).
    const profileName = process.env.RELAY_CHAT_BENCH_PROFILE;
    // The webview's own CDP session when it runs in a process of its own, else the page's.
    const profiler = profileName ? await context.newCDPSession(frame).catch(() => cdp) : null;
    const profile = async (part, action) => {
      if (profiler === null) return action();
      await profiler.send("Profiler.enable");
      await profiler.send("Profiler.setSamplingInterval", { interval: 200 });
      await profiler.send("Profiler.start");
      const result = await action();
      writeFileSync(`${profileName}.${part}.cpuprofile`, JSON.stringify((await profiler.send("Profiler.stop")).profile));
      return result;
    };
    // RELAY_CHAT_BENCH_TRACE=name: Chromium traces (devtools.timeline) while the long answer streams
    // (name.stream.json) and while the conversation opens (name.open.json); DevTools' Performance panel opens them.
    const traceName = process.env.RELAY_CHAT_BENCH_TRACE;
    const traces = {};
    const traced = async (part, action) => {
      if (!traceName) return action();
      await cdp.send("Tracing.start", { transferMode: "ReturnAsStream", traceConfig: { includedCategories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "toplevel", "v8.execute", "blink.user_timing"] } });
      const result = await action();
      const complete = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
      await cdp.send("Tracing.end");
      const { stream } = await complete;
      const chunks = [];
      for (;;) {
        const { data, eof, base64Encoded } = await cdp.send("IO.read", { handle: stream });
        chunks.push(base64Encoded ? Buffer.from(data, "base64").toString("utf8") : data);
        if (eof) break;
      }
      await cdp.send("IO.close", { handle: stream });
      const trace = chunks.join("");
      writeFileSync(`${traceName}.${part}.json`, trace);
      traces[part] = rendererTasksOf(JSON.parse(trace));
      return result;
    };
    await frame.evaluate(startFrameWatch);
    const cpuBefore = descendantsCpuSeconds();
    const streamStarted = performance.now();
    await traced("stream", () => profile("stream", () => sendTurn(`${LONG_ANSWER_REQUEST} ${stamp}`)));
    const streamSeconds = (performance.now() - streamStarted) / 1000;
    const cpuAfter = descendantsCpuSeconds();
    const gaps = await frame.evaluate(stopFrameWatch);
    // Each process kind's share of one core while the long answer streamed (1 = a whole core): on this 2-core
    // machine, the frames' room depends on what else runs beside the renderer.
    const streamCpuCores = Object.fromEntries(Object.keys(cpuAfter).map((kind) => [kind, round((cpuAfter[kind] - (cpuBefore[kind] ?? 0)) / streamSeconds, 2)]));

    // Bare requests to the same relay, from Node: the floor of Enter -> request.
    const bare = [];
    for (let index = 0; index < 20; index += 1) {
      const startedAt = performance.timeOrigin + performance.now();
      const { arrivedAt } = await (await fetch(`${relay.url}/ping`, { method: "POST", body: "{}" })).json();
      bare.push(arrivedAt - startedAt);
    }
    // The page's and the relay's clocks against this process's, each read between two of ours (the shortest such
    // round trip of 20): the offsets correct the cross-process figures.
    const offsetOf = async (read) => {
      let best = { roundTrip: Infinity, offset: 0 };
      for (let index = 0; index < 20; index += 1) {
        const before = performance.timeOrigin + performance.now();
        const theirs = await read();
        const after = performance.timeOrigin + performance.now();
        if (after - before < best.roundTrip) best = { roundTrip: after - before, offset: theirs - (before + after) / 2 };
      }
      return best;
    };
    const pageClock = await offsetOf(() => frame.evaluate(() => performance.timeOrigin + performance.now()));
    const relayClock = await offsetOf(async () => (await (await fetch(`${relay.url}/ping`, { method: "POST", body: "{}" })).json()).arrivedAt);
    const pageToRelay = pageClock.offset - relayClock.offset;
    const timings = await (await fetch(`${relay.url}/timings`)).json();
    const marks = await frame.evaluate(() => window.__sessionBench);
    const firstDelta = timings.flatMap((timing) => (timing.firstDeltaAt !== null && marks.markerAt[timing.marker] !== undefined ? [marks.markerAt[timing.marker] - pageToRelay - timing.firstDeltaAt] : []));
    const arrivals = timings.map((timing) => timing.arrivedAt);
    const enterToRequest = marks.enterAt.flatMap((enterAt) => {
      const arrival = arrivals.find((arrivedAt) => arrivedAt >= enterAt);
      return arrival === undefined ? [] : [arrival - (enterAt - pageToRelay)];
    });

    // The conversation opened again from the history.
    const turnCount = sent;
    await page.locator('.part.sidebar .title-actions .action-label[aria-label^="New Chat"]').click();
    await chat.locator(".turn").first().waitFor({ state: "detached", timeout: 60_000 });
    await page.locator('.part.sidebar .title-actions .action-label[aria-label^="Show Chat History"]').click();
    const history = chat.getByRole("region", { name: "Chat history" });
    await history.getByRole("searchbox", { name: "Filter conversations" }).fill(stamp);
    const entry = history.getByRole("button", { name: new RegExp(`Question 1 ${stamp}`) }).first();
    await entry.waitFor({ timeout: 30_000 });
    // Timed in the page, from the click's event to the frame that has every turn.
    await frame.evaluate(() => {
      window.__sessionBench.clickAt = null;
      window.__sessionBench.messages = [];
    });
    const [openMs] = await traced("open", () => profile("open", () => Promise.all([
      frame.evaluate(
        (count) =>
          new Promise((resolve) => {
            const check = () => {
              const clickAt = window.__sessionBench.clickAt;
              if (clickAt !== null && document.querySelectorAll(".turn").length >= count) resolve(performance.now() - clickAt);
              else requestAnimationFrame(check);
            };
            check();
          }),
        turnCount,
      ),
      entry.click(),
    ])));

    const openMessages = await frame.evaluate(() => {
      const { clickAt, messages } = window.__sessionBench;
      window.__sessionBench.messages = null;
      return messages.filter((message) => message.arrivedAt >= clickAt).map((message) => ({ ...message, arrivedAt: message.arrivedAt - clickAt, handledAt: message.handledAt - clickAt }));
    });
    const largest = openMessages.reduce((found, message) => (found === null || message.size > found.size ? message : found), null);

    const turnsMeasured = MEASURED_TURNS / 100;
    const summary = {
      turns: turnCount,
      measuredTurns: MEASURED_TURNS,
      enterToRequestMs: round(median(enterToRequest)),
      bareFetchMs: round(median(bare)),
      enterOverBareFetchMs: round(median(enterToRequest) - median(bare)),
      firstDeltaToPanelMsP50: round(median(firstDelta)),
      firstDeltaToPanelMsP95: round(percentile(firstDelta, 0.95)),
      firstDeltaSamples: firstDelta.length,
      framesOver50Ms: gaps.filter((gap) => gap > 50).length,
      // Where in the stream each frame over 50 ms fell: its frame's index of those watched.
      longFrameIndexes: gaps.flatMap((gap, index) => (gap > 50 ? [index] : [])),
      longestFrameMs: round(Math.max(0, ...gaps)),
      framesWatched: gaps.length,
      streamSeconds: round(streamSeconds, 2),
      streamCpuCores,
      domBefore: before.dom,
      domAfter: after.dom,
      domPer100Turns: Math.round((after.dom - before.dom) / turnsMeasured),
      rendererMbPer100Turns: round((after.rendererMb - before.rendererMb) / turnsMeasured),
      jsHeapMbPer100Turns: round((after.jsHeapMb - before.jsHeapMb) / turnsMeasured, 2),
      extensionHostMbPer100Turns: round((after.extensionHostMb - before.extensionHostMb) / turnsMeasured),
      // With RELAY_CHAT_BENCH_TRACE: the renderer's tasks over 50 ms while the long answer streamed, their wall
      // time and the thread's CPU time in them (a task long in wall time but short in CPU waited for a core).
      // and the page's CPU time handling the opened conversation's message (the longest message task in the open).
      ...(traces.stream === undefined ? {} : { streamLongTasks: traces.stream.long }),
      ...(traces.open === undefined ? {} : { historyOpenHandledCpuMs: traces.open.messageCpuMs }),
      historyOpenMs: round(openMs),
      // The open split: the click -> the conversation's message reached the page (the host's part and the trip),
      // the page handling it, and its size.
      historyOpen: largest === null ? null : { messageArrivedMs: round(largest.arrivedAt), handledMs: round(largest.handledAt - largest.arrivedAt), type: largest.type, kB: round(largest.size / 1024), messages: openMessages.length },
      clockOffsetPageToRelayMs: round(pageToRelay, 2),
      clockRoundTripsMs: [round(pageClock.roundTrip, 2), round(relayClock.roundTrip, 2)],
      loadAverage: os.loadavg().map((load) => round(load, 2)),
    };
    if (!options.json) {
      const rows = [
        ["Enter -> request (over a bare fetch)", `${summary.enterToRequestMs} ms (${summary.enterOverBareFetchMs} over ${summary.bareFetchMs})`, "<= 30 ms over"],
        ["first delta -> text in the panel", `p50 ${summary.firstDeltaToPanelMsP50} ms, p95 ${summary.firstDeltaToPanelMsP95} ms (${summary.firstDeltaSamples} turns)`, "p50 <= 17, p95 <= 33"],
        ["frames over 50 ms, 60 KB answer", `${summary.framesOver50Ms} of ${summary.framesWatched} (longest ${summary.longestFrameMs} ms)`, "0"],
        ["webview DOM per 100 turns", `+${summary.domPer100Turns} (${summary.domBefore} -> ${summary.domAfter})`, "<= +1,000"],
        ["renderer memory per 100 turns", `${summary.rendererMbPer100Turns} MB`, "<= +10 MB"],
        ["renderer JS heap after GC per 100 turns", `${summary.jsHeapMbPer100Turns} MB`, "<= 5 MB"],
        ["extension host per 100 turns (no GC)", `${summary.extensionHostMbPer100Turns} MB`, "<= +10 MB"],
        [`opening the ${turnCount}-turn conversation`, `${summary.historyOpenMs} ms`, "<= 200 ms"],
      ];
      for (const [what, value, goal] of rows) console.log(`${what.padEnd(42)} ${String(value).padEnd(48)} goal ${goal}`);
      console.log(`load average ${summary.loadAverage.join(", ")}`);
    }
    console.log(JSON.stringify(summary));
  } finally {
    await cleanup();
  }
}

/** The renderer main thread in a Chromium trace: the CPU time of its longest message handling, and its tasks over 50 ms. */
function rendererTasksOf(trace) {
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const main = events.find((event) => event.name === "thread_name" && event.args?.name === "CrRendererMain");
  const tasks = events.filter((event) => main !== undefined && event.pid === main.pid && event.tid === main.tid && event.ph === "X" && event.name === "ThreadControllerImpl::RunTask");
  const cpuOf = (list) => round(list.reduce((total, task) => total + (task.tdur ?? 0), 0) / 1000);
  const long = tasks.filter((task) => task.dur > 50_000);
  // The page handling a message from the host (the open's: the largest): its CPU time, steadier under load than wall time.
  const handled = events.filter((event) => main !== undefined && event.pid === main.pid && event.tid === main.tid && event.ph === "X" && event.name === "HandlePostMessage");
  return {
    messageCpuMs: round(Math.max(0, ...handled.map((event) => (event.tdur ?? 0) / 1000))),
    long: { count: long.length, wallMs: round(long.reduce((total, task) => total + task.dur, 0) / 1000), cpuMs: cpuOf(long), over50MsCpu: long.filter((task) => (task.tdur ?? 0) > 50_000).length },
  };
}

/** The webview document that holds the panel (VS Code nests it in two iframes). */
async function findPanelFrame(page) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    for (const frame of page.frames()) {
      if (await frame.evaluate(() => document.querySelector(".turn-list") !== null).catch(() => false)) return frame;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("the panel's webview document was not found");
}

main().then(
  () => process.exit(0),
  (error) => {
    say(`FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
