import http from "node:http";
import { answerCharactersOf, buildAnswerStream } from "./answerStream";
import type { AnswerStream } from "./answerStream";
import { writeInPieces } from "../client/writeInPieces";

// A minimal relay for the host benchmark, in its own process so that serving costs the measured host
// nothing: GET /v1/models, and POST /v1/responses streaming the answer the model id names, written in
// random 1 to 4 KB chunks with a yield between writes.

const streams = new Map<number, AnswerStream>();
const streamFor = (characters: number) => {
  let stream = streams.get(characters);
  if (!stream) streams.set(characters, (stream = buildAnswerStream(characters)));
  return stream;
};

let seed = 7;
function nextChunkLength(): number {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return 1024 + Math.floor((seed / 4294967296) * 3072);
}

/** Random 1 to 4 KB pieces, the last one ending at `length`. */
function* pieceEnds(length: number): Generator<number> {
  for (let end = 0; end < length; ) {
    end = Math.min(length, end + nextChunkLength());
    yield end;
  }
}

const server = http.createServer((request, response) => {
  let body = "";
  request.on("data", (chunk: Buffer) => (body += chunk.toString()));
  request.on("end", async () => {
    if (request.method === "GET" && request.url?.endsWith("/v1/models")) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ object: "list", data: [{ id: "answer-6000" }, { id: "answer-600000" }] }));
      return;
    }
    const model = (JSON.parse(body || "{}") as { model?: string }).model ?? "";
    const { bytes } = streamFor(answerCharactersOf(model));
    response.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "x-request-id": `req_bench_${Date.now()}` });
    await writeInPieces(response, bytes, pieceEnds(bytes.length));
  });
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === "object" && address ? address.port : 0 })}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
