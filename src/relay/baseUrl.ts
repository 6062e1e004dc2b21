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
    throw new BaseUrlError("No base URL is set. Set the relay's address, for example https://relay.example.com/v1.");
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new BaseUrlError(`The base URL "${trimmed}" is not a valid URL. It should look like https://relay.example.com/v1.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new BaseUrlError(`The base URL must start with http:// or https:// (got ${url.protocol}).`);
  }
  const adjustments: string[] = [];
  let path = url.pathname.replace(/\/+$/, "");
  for (const suffix of ENDPOINT_SUFFIXES) {
    if (path.endsWith(`/v1${suffix}`)) {
      path = path.slice(0, -suffix.length);
      adjustments.push(`removed the endpoint path "${suffix}" from the base URL`);
    }
  }
  let versionPrefixes = 0;
  while (/\/v1$/i.test(path)) {
    path = path.slice(0, -3).replace(/\/+$/, "");
    versionPrefixes += 1;
  }
  if (versionPrefixes > 1) adjustments.push(`the base URL contained /v1 ${versionPrefixes} times; it is used once`);
  url.pathname = path;
  url.search = "";
  url.hash = "";
  return { root: url.toString().replace(/\/+$/, ""), adjustments };
}

export function endpointUrl(root: string, endpoint: "responses" | "models"): string {
  return `${root}/v1/${endpoint}`;
}
