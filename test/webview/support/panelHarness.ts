import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import type { PanelChange, PanelState, ToHost, ToWebview } from "../../../src/panel/protocol";
import { bundleForBrowser } from "./browserBundle";
import { launchHeadlessChromium } from "./chromium";

const repositoryRoot = join(__dirname, "..", "..", "..");

// Stands in for VS Code's webview API, defined before the bundle like the real one. It records what the
// panel posts, throws on a second acquire (as VS Code does), and counts CSP violations.
const fakeVsCodeApi = `
window.__posted = [];
window.__xss = [];
window.__cspViolations = [];
// What VS Code gives a reloaded page back (PanelHarness.open's savedState), else nothing.
window.__savedState = window.__initialSavedState;
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(event.violatedDirective + " " + event.blockedURI);
});
let acquired = false;
window.acquireVsCodeApi = () => {
  if (acquired) throw new Error("acquireVsCodeApi called twice");
  acquired = true;
  return {
    postMessage: (message) => window.__posted.push(JSON.parse(JSON.stringify(message))),
    getState: () => window.__savedState,
    setState: (state) => { window.__savedState = state; },
  };
};
`;

declare global {
  interface Window {
    __posted: ToHost[];
    __xss: number[];
    __cspViolations: string[];
  }
}

export type ThemeName = "dark" | "light" | "dark-modern" | "light-modern" | "high-contrast" | "high-contrast-light";

/**
 * Gives the page the CSS variables and body classes VS Code gives a webview under that theme (captured
 * from code-server by test/ui/themeCapture.test.ts), through the CSSOM as VS Code does.
 */
export async function applyTheme(page: Page, theme: ThemeName): Promise<void> {
  const captured = JSON.parse(await readFile(join(__dirname, "..", "fixtures", "themes", `${theme}.json`), "utf8")) as { style: string; bodyClass: string };
  await page.evaluate(({ style, bodyClass }) => {
    document.documentElement.style.cssText = style;
    document.body.className = bodyClass;
  }, captured);
}

export interface PanelPage {
  readonly page: Page;
  /** Uncaught errors and console errors seen in the page. */
  readonly pageErrors: string[];
  /** Delivers a message the way the host does: a MessageEvent on window. */
  send(message: ToWebview | Record<string, unknown>): Promise<void>;
  /** A snapshot, as the host sends after `ready` (the view may get one at any time). */
  sendState(state: PanelState, strings?: Record<string, string>, locale?: string): Promise<void>;
  sendPatch(...changes: PanelChange[]): Promise<void>;
  posted(): Promise<ToHost[]>;
  clearPosted(): Promise<void>;
  /** Resolves once the panel posted a message of this type (after the last clearPosted). */
  waitForPosted(type: ToHost["type"]): Promise<ToHost[]>;
}

/**
 * The webview bundle (media/main.ts, built like scripts/build.mjs builds it) on a page with the panel's
 * CSP and stylesheet, served from loopback; one Chromium per test file.
 */
export class PanelHarness {
  private constructor(
    private readonly browser: Browser,
    private readonly origin: string,
    private readonly closeServer: () => Promise<void>,
  ) {}

  static async start(): Promise<PanelHarness> {
    const bundle = await bundleForBrowser(join(repositoryRoot, "media", "main.ts"));
    const highlighter = await bundleForBrowser(join(repositoryRoot, "media", "render", "highlighterChunk.ts"));
    const stylesheet = await readFile(join(repositoryRoot, "media", "panel.css"), "utf8");
    const codeBlockStylesheet = await readFile(join(repositoryRoot, "media", "codeBlocks.css"), "utf8");
    const codicons = join(repositoryRoot, "node_modules", "@vscode", "codicons", "dist");
    const codiconStyles = await readFile(join(codicons, "codicon.css"), "utf8");
    const codiconFont = await readFile(join(codicons, "codicon.ttf"));
    const server = createServer((request, response) => {
      const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
      // Cross-origin isolated, so performance.now() has a fine timer (benchmarks read it in the page).
      response.setHeader("Cross-Origin-Opener-Policy", "same-origin");
      response.setHeader("Cross-Origin-Embedder-Policy", "require-corp");
      if (path === "/webview.js" || path === "/highlighter.js") {
        response.writeHead(200, { "Content-Type": "text/javascript; charset=utf-8" });
        response.end(path === "/webview.js" ? bundle : highlighter);
      } else if (path === "/panel.css" || path === "/codeBlocks.css") {
        response.writeHead(200, { "Content-Type": "text/css; charset=utf-8" });
        response.end(path === "/panel.css" ? stylesheet : codeBlockStylesheet);
      } else if (path === "/codicon.css") {
        response.writeHead(200, { "Content-Type": "text/css; charset=utf-8" });
        response.end(codiconStyles);
      } else if (path === "/codicon.ttf") {
        response.writeHead(200, { "Content-Type": "font/ttf" });
        response.end(codiconFont);
      } else if (path === "/panel.html") {
        const nonce = randomBytes(16).toString("base64");
        // The CSP of src/panel/webviewHtml.ts, with this origin as the webview's cspSource.
        const policy = [
          "default-src 'none'",
          "img-src 'self' data:",
          "style-src 'self'",
          "font-src 'self'",
          `script-src 'nonce-${nonce}'`,
          "connect-src 'none'",
          "frame-src 'none'",
          "form-action 'none'",
          "base-uri 'none'",
        ].join("; ");
        response.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": policy });
        response.end(
          `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
            `<link rel="stylesheet" href="/codicon.css"><link rel="stylesheet" href="/panel.css"><link rel="stylesheet" href="/codeBlocks.css">` +
            `<script nonce="${nonce}">${fakeVsCodeApi}</script></head>` +
            `<body data-initial-focus><div id="app"></div>` +
            `<script nonce="${nonce}" src="/webview.js"></script></body></html>`,
        );
      } else {
        response.writeHead(404, { "Content-Type": "text/plain" });
        response.end("not found");
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const closeServer = () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    try {
      return new PanelHarness(await launchHeadlessChromium(), `http://127.0.0.1:${port}`, closeServer);
    } catch (error) {
      await closeServer();
      throw error;
    }
  }

  /** A page `width` px wide (the side bar's width), in one of the captured VS Code themes. */
  async open(options: { width?: number; height?: number; theme?: ThemeName; savedState?: unknown } = {}): Promise<PanelPage> {
    const page = await this.browser.newPage({ viewport: { width: options.width ?? 420, height: options.height ?? 800 } });
    // The state a page saved before, as VS Code hands it to the page after a window reload.
    if (options.savedState !== undefined) await page.addInitScript((state) => ((window as unknown as { __initialSavedState: unknown }).__initialSavedState = state), options.savedState);
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") pageErrors.push(message.text());
    });
    // Nothing leaves loopback, whatever a hostile string tries.
    await page.route(/^(?!http:\/\/127\.0\.0\.1[:/])/, (route) => route.abort());
    await page.goto(`${this.origin}/panel.html`);
    if (options.theme !== undefined) await applyTheme(page, options.theme);
    await page.waitForFunction(() => window.__posted.some((message) => message.type === "ready"));
    const send = async (message: ToWebview | Record<string, unknown>) => {
      await page.evaluate((data) => window.postMessage(data, "*"), message);
      // postMessage is delivered as a task; wait for it to be handled before the test looks.
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
    };
    return {
      page,
      pageErrors,
      send,
      sendState: (state, strings = {}, locale = "en") => send({ type: "snapshot", state, strings, locale }),
      sendPatch: (...changes) => send({ type: "patch", changes }),
      posted: () => page.evaluate(() => window.__posted),
      clearPosted: () => page.evaluate(() => void (window.__posted = [])),
      waitForPosted: async (type) => {
        await page.waitForFunction((expected) => window.__posted.some((message) => message.type === expected), type);
        return page.evaluate((expected) => window.__posted.filter((message) => message.type === expected), type);
      },
    };
  }

  async close(): Promise<void> {
    await this.browser.close();
    await this.closeServer();
  }
}
