import * as l10n from "@vscode/l10n";
// The base URL a user types comes in many forms: with or without a trailing slash, with `/v1`,
// sometimes with the whole endpoint pasted. All of them map to one root so `/v1` is never doubled.

class BaseUrlError extends Error {
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

export function endpointUrl(root: string, endpoint: "responses" | "models"): string {
  return `${root}/v1/${endpoint}`;
}
