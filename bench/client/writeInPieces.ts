import type { ServerResponse } from "node:http";

/**
 * Writes `bytes` to a streamed response in the pieces `pieceEnds` marks (each the end offset of a piece),
 * yielding between writes so the pieces reach the client as separate reads, then ends the response.
 */
export async function writeInPieces(response: ServerResponse, bytes: Uint8Array, pieceEnds: Iterable<number>): Promise<void> {
  response.socket?.setNoDelay(true);
  let start = 0;
  for (const end of pieceEnds) {
    if (!response.write(bytes.subarray(start, end))) await new Promise((resolve) => response.once("drain", resolve));
    else await new Promise((resolve) => setImmediate(resolve));
    start = end;
  }
  response.end();
}
