import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";

/** A minimal HTTP CONNECT proxy on loopback that counts the tunnels it opened. */
export interface TestProxy {
  url: string;
  tunnels: string[];
  close(): Promise<void>;
}

export async function startConnectProxy(): Promise<TestProxy> {
  const tunnels: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((_request, response) => {
    response.writeHead(405).end();
  });
  server.on("connect", (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    tunnels.push(request.url ?? "");
    const [host, port] = (request.url ?? "").split(":");
    const upstream = net.connect(Number(port), host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => socket.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
