import { CHAT_COMPLETIONS_FORMAT_CODE } from "../accumulate";
import type { RequestOutcome } from "../types";

// Whether a failed Responses request means "this model has no Responses interface here", the answers real relays
// give for it (their sources): new-api's `convert_request_failed` (HTTP 500, the channel cannot convert the request),
// one-api's 404 "Invalid URL (POST /v1/responses)" (no such route) and 501 `api_not_implemented`, a gateway's 400
// "… not supported" naming the endpoint, and a relay that answers in Chat Completions format instead. Nothing else:
// a 400 about a parameter, a 404 about the model, a 500 of the upstream are other problems, and offering another
// wire for them would send a request that cannot help.

const REFUSAL_CODES = new Set(["convert_request_failed", "api_not_implemented", "unsupported_endpoint", "endpoint_not_supported", "unsupported_api"]);
const NOT_SUPPORTED = /not (be )?supported|unsupported|not implemented|does not support|doesn't support|not available/i;
const NAMES_THE_WIRE = /\/v1\/responses|\bresponses?\b|\bendpoint\b|\broute\b|\burl\b|\binterface\b|\bprotocol\b/i;
const NO_ROUTE = /invalid url|no route|route not found|404 page not found|\bnot found\b/i;

export function isResponsesRefusal(outcome: RequestOutcome): boolean {
  if (outcome.kind === "failed") return outcome.code === CHAT_COMPLETIONS_FORMAT_CODE;
  if (outcome.kind !== "http_error") return false;
  const code = (outcome.code ?? "").toLowerCase();
  if (REFUSAL_CODES.has(code)) return true;
  const said = `${outcome.message} ${outcome.body}`;
  switch (outcome.status) {
    case 501:
      return true;
    case 404:
      return NO_ROUTE.test(said) && !/model/i.test(`${code} ${outcome.message}`);
    case 400:
    case 405:
      return NOT_SUPPORTED.test(said) && NAMES_THE_WIRE.test(said) && !/parameter|reasoning|tool/i.test(outcome.message);
    default:
      return false;
  }
}
