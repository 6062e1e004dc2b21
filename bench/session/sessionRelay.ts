import http from "node:http";
import { buildTextStream } from "../client/benchStream";

// The relay of `bench:session`, in its own process so that serving costs the measured VS Code nothing:
// GET /v1/models, and POST /v1/responses answering a short answer (a few deltas, the first a marker the
// page can look for), or, for a message that asks for it, a 60 KB answer in 1,500 deltas paced over a few
// seconds as a model writes. It records when each request arrived and when its first delta was written
// (epoch milliseconds with a fraction, the clock the page uses too): GET /timings. POST /ping answers when it
// arrived, for a bare request's time.

export const LONG_ANSWER_REQUEST = "Please write the long answer";
const LONG_DELTAS = 1_500;
const LONG_DELTA_CHARACTERS = 40;
/** Time between two deltas of the long answer: 1,500 of them take about 6 s, as a fast model's would. */
const LONG_DELTA_INTERVAL_MS = 4;
/** A short answer's first delta comes this long after the request, as a model's first token does. */
const FIRST_DELTA_AFTER_MS = 40;

interface Timing {
  marker: string;
  arrivedAt: number;
  firstDeltaAt: number | null;
}

const timings: Timing[] = [];
const epochNow = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function lastUserText(body: string): string {
  try {
    const input = (JSON.parse(body) as { input?: unknown }).input;
    const text = JSON.stringify(input ?? "");
    const at = text.lastIndexOf('"user"');
    return at < 0 ? text : text.slice(at);
  } catch {
    return "";
  }
}

function longDeltas(marker: string): string[] {
  const words = "the relay streams a long answer through the panel while the reader waits for it to end".split(" ");
  const deltas: string[] = [`${marker} `];
  for (let index = 1; index < LONG_DELTAS; index += 1) {
    let delta = index % 40 === 39 ? ".\n\n" : " ";
    while (delta.length < LONG_DELTA_CHARACTERS) delta += `${words[(index + delta.length) % words.length]} `;
    deltas.push(delta.slice(0, LONG_DELTA_CHARACTERS));
  }
  return deltas;
}

function shortDeltas(marker: string): string[] {
  return [`${marker} `, "A short answer ", "with a list:\n\n", "- one point\n", "- another point\n\n", "and a closing ", "sentence."];
}

/** The stream's frames, split so each delta can be written on its own: head, deltas, tail. */
function framesOf(deltas: string[], responseId: string): { head: string; deltas: string[]; tail: string } {
  const text = buildTextStream(deltas, responseId).bytes.toString("utf8");
  const frames = text.split(/(?<=\n\n)/);
  const first = frames.findIndex((frame) => frame.startsWith("event: response.output_text.delta"));
  return { head: frames.slice(0, first).join(""), deltas: frames.slice(first, first + deltas.length), tail: frames.slice(first + deltas.length).join("") };
}

const server = http.createServer((request, response) => {
  let body = "";
  request.on("data", (chunk: Buffer) => (body += chunk.toString()));
  request.on("end", async () => {
    if (request.method === "GET" && request.url?.endsWith("/v1/models")) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ object: "list", data: [{ id: "session-bench", object: "model", owned_by: "bench" }] }));
      return;
    }
    if (request.method === "GET" && request.url === "/timings") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(timings));
      return;
    }
    // A bare request's arrival, for the floor of "Enter -> the request leaves".
    if (request.method === "POST" && request.url === "/ping") {
      const arrivedAt = epochNow();
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ arrivedAt }));
      return;
    }
    if (request.method !== "POST" || !request.url?.endsWith("/v1/responses")) {
      response.writeHead(404).end();
      return;
    }
    const timing: Timing = { marker: `Marker${timings.length}x`, arrivedAt: epochNow(), firstDeltaAt: null };
    timings.push(timing);
    const long = lastUserText(body).includes(LONG_ANSWER_REQUEST);
    const stream = framesOf(long ? longDeltas(timing.marker) : shortDeltas(timing.marker), `resp_session${timings.length}`);
    response.socket?.setNoDelay(true);
    response.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "x-request-id": `req_session_${timings.length}` });
    response.write(stream.head);
    await sleep(FIRST_DELTA_AFTER_MS);
    for (const [index, frame] of stream.deltas.entries()) {
      response.write(frame);
      if (index === 0) timing.firstDeltaAt = epochNow();
      if (long) await sleep(LONG_DELTA_INTERVAL_MS);
    }
    response.end(stream.tail);
  });
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === "object" && address ? address.port : 0 })}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
