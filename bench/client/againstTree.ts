import { spawn } from "node:child_process";
import path from "node:path";
import { createParser } from "eventsource-parser";
import { Agent, fetch as undiciFetch } from "undici";
import { RelayClient } from "../../src/relay/client";

// `node --expose-gc --require tsx/cjs bench/client/againstTree.ts --tree=/tmp/base-client [--chat] [--rounds=31]`:
// this checkout's client against another checkout's (e.g. main unpacked with `git archive`, its node_modules a
// symlink) and the floor, in ONE process over HTTP from one stream server, `global.gc()` before each as in
// bench:client. Two separate runs of bench:client move 10-20 % on a shared machine; the per-round ratio of two
// clients measured side by side moves far less. Prints medians and the median of the per-round ratio.

const treeArgument = process.argv.find((argument) => argument.startsWith("--tree="));
if (!treeArgument) throw new Error("--tree=/path/to/other/checkout is required");
const roundsArgument = process.argv.find((argument) => argument.startsWith("--rounds="));
const rounds = roundsArgument ? Number(roundsArgument.split("=")[1]) : 31;
const chat = process.argv.includes("--chat");
const endpoint = chat ? "/v1/chat/completions" : "/v1/responses";
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { RelayClient: OtherClient } = require(path.join(treeArgument.slice("--tree=".length), "src/relay/client")) as { RelayClient: typeof RelayClient };

function median(values: readonly number[]): number {
  return [...values].sort((left, right) => left - right)[values.length >> 1];
}

async function main(): Promise<void> {
  const child = spawn(process.execPath, ["--require", "tsx/cjs", path.join(__dirname, "streamServer.ts"), "random-1-4k"], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise<string>((resolve) => child.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString())));
  const baseUrl = `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`;
  const count = chat ? 20_004 : 20_008;
  const client = (Client: typeof RelayClient) => async () => {
    const relay = new Client({ baseUrl, apiKey: "bench-key", dispatcher: new Agent() });
    const result = await relay.send({ model: "bench-model", input: [{ role: "user", content: "go" }], stream: true, store: false }, { protocol: chat ? "chat" : undefined });
    await relay.close();
    if (result.outcome.kind !== "completed") throw new Error(result.outcome.kind);
  };
  const floor = async () => {
    const dispatcher = new Agent();
    const response = await undiciFetch(`${baseUrl}${endpoint}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}", dispatcher });
    const parser = createParser({ onEvent: (message) => message.data !== "[DONE]" && JSON.parse(message.data) });
    const decoder = new TextDecoder();
    for await (const chunk of response.body!) parser.feed(decoder.decode(chunk, { stream: true }));
    await dispatcher.close();
  };
  const variants: Record<string, () => Promise<void>> = { other: client(OtherClient), this: client(RelayClient), floor };
  const names = Object.keys(variants);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  try {
    for (const name of names) await variants[name]();
    for (let round = 0; round < rounds; round += 1) {
      for (let index = 0; index < names.length; index += 1) {
        const name = names[(index + round) % names.length];
        global.gc?.();
        const before = process.cpuUsage();
        await variants[name]();
        const used = process.cpuUsage(before);
        samples[name].push((used.user + used.system) / count);
      }
    }
  } finally {
    child.kill("SIGTERM");
  }
  const us = Object.fromEntries(names.map((name) => [name, Number(median(samples[name]).toFixed(3))]));
  const paired = median(samples.this.map((value, round) => value / samples.other[round]));
  console.log(JSON.stringify({ endpoint, rounds, cpuUsPerEvent: us, otherVsFloor: Number((us.other / us.floor).toFixed(3)), thisVsFloor: Number((us.this / us.floor).toFixed(3)), thisVsOtherPerRound: Number(paired.toFixed(3)) }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
