import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface HarnessServer {
  /** Page with the same strict CSP as the panel. */
  readonly strictPageUrl: string;
  /** Same page without any CSP: the sanitizer alone must hold here. */
  readonly unprotectedPageUrl: string;
  close(): Promise<void>;
}

// Close to the panel's stylesheet in what drives layout: a 560 px chat column, wrapped prose,
// horizontally scrolling code.
const panelLikeStyles = `
body { margin: 0; font: 13px/1.45 system-ui, sans-serif; }
.chat-column { width: 560px; padding: 0 12px; box-sizing: border-box; overflow-wrap: anywhere; }
.code-block { margin: 8px 0; border: 1px solid #8884; border-radius: 4px; }
.code-toolbar { display: flex; gap: 4px; padding: 2px 4px; font-size: 11px; }
.code-toolbar .code-language { flex: 1; opacity: 0.7; }
pre { margin: 0; padding: 8px; overflow-x: auto; font: 12px/1.4 monospace; }
table { border-collapse: collapse; } th, td { border: 1px solid #8886; padding: 2px 6px; }
.align-center { text-align: center; } .align-right { text-align: right; }
a[data-href] { color: #3794ff; cursor: pointer; text-decoration: underline; }
blockquote { margin: 0 0 0 4px; padding-left: 8px; border-left: 3px solid #8886; }
`;

/**
 * Serves a harness bundle on 127.0.0.1, with the highlighter script beside it (as media/dist has it) and
 * media/codeBlocks.css in the page's styles. The page is cross-origin isolated (COOP/COEP) so that
 * performance.now() has microsecond resolution instead of the coarse default.
 */
export async function startHarnessServer(bundleSource: string, highlighterSource: string, codeBlockStyles: string): Promise<HarnessServer> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    const isolation = { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" };
    if (path === "/harness.js" || path === "/highlighter.js") {
      response.writeHead(200, { "Content-Type": "text/javascript; charset=utf-8", "Cross-Origin-Resource-Policy": "same-origin", ...isolation });
      response.end(path === "/harness.js" ? bundleSource : highlighterSource);
      return;
    }
    if (path === "/strict.html" || path === "/unprotected.html") {
      const nonce = randomBytes(16).toString("base64");
      const policy = `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'`;
      const headers: Record<string, string> = { "Content-Type": "text/html; charset=utf-8", ...isolation };
      if (path === "/strict.html") headers["Content-Security-Policy"] = policy;
      response.writeHead(200, headers);
      response.end(
        `<!doctype html><html><head><meta charset="utf-8">` +
          `<style nonce="${nonce}">${panelLikeStyles}${codeBlockStyles}</style>` +
          `<script nonce="${nonce}" src="/harness.js"></script></head>` +
          `<body><div id="chat" class="chat-column"></div></body></html>`,
      );
      return;
    }
    response.writeHead(404, { "Content-Type": "text/plain" });
    response.end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    strictPageUrl: `${origin}/strict.html`,
    unprotectedPageUrl: `${origin}/unprotected.html`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
