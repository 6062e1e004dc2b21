import * as l10n from "@vscode/l10n";
import { request as httpRequest } from "undici";
import type { Dispatcher } from "undici";
import { classifyNetworkError } from "./errorClassifier";
import { redactJson, redactSecrets } from "./redact";

// One small GET of a relay's side endpoint (balance, prices, status): never billed, time-limited,
// abortable, through the same connection pool, proxy and extra headers as the relay's own requests. What
// comes back is parsed JSON or one sentence saying why not, with the key redacted from it.

/** How the relay is reached: what the RelayClient holds, without handing out the key itself. */
export interface RelayEndpoint {
  root: string;
  apiKey: string;
  extraHeaders: Readonly<Record<string, string>>;
  dispatcher: Dispatcher;
  userAgent: string;
}

export interface RelayGetOptions {
  signal?: AbortSignal;
  /** The whole request's limit; side endpoints answer fast or not at all. Default 10 s. */
  timeoutMs?: number;
  /** Send the key (balance endpoints need it; public status and price lists do not). Default true. */
  withKey?: boolean;
}

export type RelayGetResult =
  | { ok: true; status: number; json: unknown; headers: Record<string, string | string[] | undefined> }
  | { ok: false; status: number | null; problem: string };

export const DEFAULT_SIDE_REQUEST_TIMEOUT_MS = 10_000;
const MAX_SIDE_BODY_BYTES = 4 * 1024 * 1024;

/** GETs `root + path` (path starts with "/") and parses the JSON body, whatever the status. */
export async function relayGetJson(endpoint: RelayEndpoint, path: string, options: RelayGetOptions = {}): Promise<RelayGetResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_SIDE_REQUEST_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const redact = (text: string) => redactSecrets(text, [endpoint.apiKey]);
  const headers: Record<string, string> = { ...endpoint.extraHeaders, accept: "application/json", "user-agent": endpoint.userAgent };
  if (options.withKey !== false) headers.authorization = `Bearer ${endpoint.apiKey}`;
  let response: Dispatcher.ResponseData;
  let text: string;
  try {
    response = await httpRequest(`${endpoint.root}${path}`, { method: "GET", dispatcher: endpoint.dispatcher, headers, signal, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    text = await readLimited(response);
  } catch (error) {
    if (options.signal?.aborted) return { ok: false, status: null, problem: l10n.t("cancelled") };
    if (timeout.aborted) return { ok: false, status: null, problem: l10n.t("no answer within {0} ms", timeoutMs) };
    return { ok: false, status: null, problem: redact(classifyNetworkError(error).message) };
  }
  // Redacted before parsing and after (a key echoed JSON-escaped only becomes the key once decoded), so nothing
  // read from the answer can carry the key on (LiteLLM's /key/info echoes the key it was asked about).
  const safe = redact(text);
  try {
    return { ok: true, status: response.statusCode, json: redactJson(JSON.parse(safe), [endpoint.apiKey]), headers: response.headers };
  } catch {
    return { ok: false, status: response.statusCode, problem: l10n.t("HTTP {0}, not JSON: {1}", response.statusCode, JSON.stringify(safe.slice(0, 120))) };
  }
}

async function readLimited(response: Dispatcher.ResponseData): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Buffer).length;
    if (size > MAX_SIDE_BODY_BYTES) {
      response.body.destroy();
      break;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
