import { Agent, EnvHttpProxyAgent, ProxyAgent } from "undici";
import type { Dispatcher } from "undici";

export interface ProxyOptions {
  /** An explicit proxy URL (a setting); wins over the environment. */
  proxyUrl?: string | null;
  /** Verify TLS certificates (VS Code's http.proxyStrictSSL); true unless the user turned it off. */
  strictSsl?: boolean;
}

/**
 * Picks the connection dispatcher: an explicit proxy, else HTTPS_PROXY / HTTP_PROXY / NO_PROXY from the
 * environment (undici's EnvHttpProxyAgent reads both cases), else a direct connection.
 */
export function createDispatcher(options: ProxyOptions = {}): Dispatcher {
  const rejectUnauthorized = options.strictSsl !== false;
  if (options.proxyUrl && options.proxyUrl.trim()) {
    return new ProxyAgent({ uri: options.proxyUrl.trim(), requestTls: { rejectUnauthorized }, proxyTls: { rejectUnauthorized } });
  }
  const environmentHasProxy = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"].some((name) => process.env[name]);
  if (environmentHasProxy) return new EnvHttpProxyAgent({ connect: { rejectUnauthorized } });
  return new Agent({ connect: { rejectUnauthorized } });
}
