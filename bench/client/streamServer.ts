import http from "node:http";
import { buildBenchStream, seededRandom } from "./benchStream";
import { buildChatBenchStream } from "./chatBenchStream";
import { writeInPieces } from "./writeInPieces";

// Runs in its own process so that serving the stream costs the measured client nothing.
// argv[2]: chunking, "random-1-4k" | "frame" | "64k".

const chunking = process.argv[2] ?? "random-1-4k";
const { bytes: responsesBytes } = buildBenchStream();
const { bytes: chatBytes } = buildChatBenchStream();

function chunkBoundaries(bytes: Buffer): number[] {
  const ends: number[] = [];
  if (chunking === "frame") {
    for (let index = bytes.indexOf("\n\n"); index !== -1; index = bytes.indexOf("\n\n", index + 2)) ends.push(index + 2);
  } else if (chunking === "64k") {
    for (let end = 65_536; end < bytes.length; end += 65_536) ends.push(end);
  } else {
    const random = seededRandom(7);
    for (let end = 1024 + Math.floor(random() * 3072); end < bytes.length; end += 1024 + Math.floor(random() * 3072)) ends.push(end);
  }
  if (ends[ends.length - 1] !== bytes.length) ends.push(bytes.length);
  return ends;
}

const boundaries = chunkBoundaries(responsesBytes);
const chatBoundaries = chunkBoundaries(chatBytes);
const server = http.createServer((request, response) => {
  request.resume();
  request.on("end", async () => {
    response.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "x-request-id": "req_bench" });
    // POST /v1/chat/completions gets the same answer as Chat Completions chunks (chatBenchStream.ts).
    if (request.url?.endsWith("/chat/completions")) await writeInPieces(response, chatBytes, chatBoundaries);
    else await writeInPieces(response, responsesBytes, boundaries);
  });
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === "object" && address ? address.port : 0, chunks: boundaries.length })}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
