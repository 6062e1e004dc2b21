// A second loopback port beside a running emulator process, for tests that cannot reach the emulator
// object (in-host tests run inside VS Code's extension host, the emulator in the runner's process):
//   POST /faults    body: one Fault (faults.ts), applied to the next POST /v1/responses
//   POST /replay    body: raw SSE text, sent as the answer to the next POST /v1/responses
//   GET  /received  the requests the relay received, oldest first (method, path, headers, body, requestId,
//                   inputImages: the media types of the input's data URL images)
//   POST /models    body: {"serveAlso": ["deepseek-reasoner", ...]}: models served and listed beside the profile's
//                   own (the split profile's thinking models on any profile, thinkingModels.ts); [] ends it
// Started only with `main.ts --control`; it never shares the relay's port, so the relay's own routes
// behave exactly as without it.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Fault, RelayEmulator } from "./server";

export async function startControlServer(emulator: RelayEmulator): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const reply = (status: number, body: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(body));
      };
      if (request.method === "POST" && request.url === "/faults") {
        try {
          emulator.queueFault(JSON.parse(Buffer.concat(chunks).toString("utf8")) as Fault);
          return reply(200, { queued: true });
        } catch (error) {
          return reply(400, { error: String(error) });
        }
      }
      if (request.method === "POST" && request.url === "/replay") {
        emulator.queueReplay(Buffer.concat(chunks));
        return reply(200, { queued: true });
      }
      if (request.method === "POST" && request.url === "/models") {
        try {
          const { serveAlso } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { serveAlso?: unknown };
          if (!Array.isArray(serveAlso) || !serveAlso.every((model) => typeof model === "string")) return reply(400, { error: 'expected {"serveAlso": ["model", ...]}' });
          emulator.serveAlso(serveAlso);
          return reply(200, { serving: serveAlso });
        } catch (error) {
          return reply(400, { error: String(error) });
        }
      }
      if (request.method === "GET" && request.url === "/received") {
        return reply(200, emulator.received.map(({ method, path, headers, body, requestId, inputImages }) => ({ method, path, headers, body, requestId, inputImages })));
      }
      reply(404, { error: `no control route ${request.method} ${request.url}` });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
