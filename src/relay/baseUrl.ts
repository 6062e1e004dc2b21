import * as l10n from "@vscode/l10n";
// The base URL a user types comes in many forms: with or without a trailing slash, with `/v1`,
// sometimes with the whole endpoint pasted. All of them map to one root so `/v1` is never doubled.

export class BaseUrlError extends Error {
  override readonly name = "BaseUrlError";
}

export interface NormalizedBaseUrl {
  /** The root without `/v1`, e.g. `https://relay.example.com/openai`. */
  root: string;
  /** What was stripped or fixed, for the connection check's report. */
  adjustments: string[];
}

const ENDPOINT_SUFFIXES = ["/responses", "/models", "/chat/completions"];

export function normalizeBaseUrl(input: string | undefined | null): NormalizedBaseUrl {
  const trimmed = (input ?? "").trim();
  if (!trimmed) {
    throw new BaseUrlError(l10n.t("No base URL is set. Set the relay's address, for example https://relay.example.com/v1."));
  }
  const schemeless = withoutScheme(trimmed);
  if (schemeless) {
    throw new BaseUrlError(l10n.t('The base URL "{0}" has no http:// or https:// in front, so it cannot be used. Write it with one, for example {1}.', trimmed, schemeless));
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new BaseUrlError(l10n.t('The base URL "{0}" is not a valid URL. It should look like https://relay.example.com/v1.', trimmed));
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new BaseUrlError(l10n.t("The base URL must start with http:// or https:// (got {0}).", url.protocol));
  }
  const adjustments: string[] = [];
  let path = url.pathname.replace(/\/+$/, "");
  for (const suffix of ENDPOINT_SUFFIXES) {
    if (path.endsWith(`/v1${suffix}`)) {
      path = path.slice(0, -suffix.length);
      adjustments.push(l10n.t('removed the endpoint path "{0}" from the base URL', suffix));
    }
  }
  let versionPrefixes = 0;
  while (/\/v1$/i.test(path)) {
    path = path.slice(0, -3).replace(/\/+$/, "");
    versionPrefixes += 1;
  }
  if (versionPrefixes > 1) adjustments.push(l10n.t("the base URL contained /v1 {0} times; it is used once", versionPrefixes));
  url.pathname = path;
  url.search = "";
  url.hash = "";
  return { root: url.toString().replace(/\/+$/, ""), adjustments };
}

/**
 * For an address typed without its scheme (`127.0.0.1:46035`, `relay.example.com/v1`), which `new URL` rejects
 * or reads as a scheme of its own (`localhost:8080`), the address as it should be written; otherwise null.
 * A local address is suggested with http://, any other with https://.
 */
function withoutScheme(text: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return null;
  const match = /^([^\s/:?#@]+)(:\d+)?(?:[/?#]|$)/.exec(text);
  if (!match) return null;
  const host = match[1]!.toLowerCase();
  const local = host === "localhost" || /^[\d.]+$/.test(host);
  if (!local && !host.includes(".")) return null;
  return `${local ? "http" : "https"}://${text}`;
}

export function endpointUrl(root: string, endpoint: "responses" | "chat/completions" | "models"): string {
  return `${root}/v1/${endpoint}`;
}
