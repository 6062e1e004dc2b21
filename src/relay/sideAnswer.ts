import * as l10n from "@vscode/l10n";
import { isObject } from "./outputItems";
import type { RelayGetResult } from "./relayGet";
import type { JsonObject } from "./types";

// Reading the answers of side endpoints (balance, prices, status), which relays shape differently:
// new-api and one-api answer HTTP 200 with `{"success": false, "message"}` or `{"error": {...}}` when
// they refuse, LiteLLM answers `{"error": {"message"}}` with a status, others `{"message"}`.

export type SideRequester = { getJson(path: string, options?: { signal?: AbortSignal; timeoutMs?: number; withKey?: boolean }): Promise<RelayGetResult> };

/** The JSON of a successful answer, or why it is not one (one short phrase). */
export function successfulJson(result: RelayGetResult): { ok: true; json: JsonObject } | { ok: false; problem: string } {
  if (!result.ok) return { ok: false, problem: result.problem };
  const json = result.json;
  const refusal = refusalOf(json);
  if (result.status < 200 || result.status >= 300) return { ok: false, problem: refusal ? `HTTP ${result.status}: ${refusal}` : `HTTP ${result.status}` };
  if (refusal !== null) return { ok: false, problem: l10n.t("refused: {0}", refusal) };
  if (!isObject(json)) return { ok: false, problem: l10n.t("the answer is not a JSON object") };
  return { ok: true, json };
}

function refusalOf(json: unknown): string | null {
  if (!isObject(json)) return null;
  if (isObject(json.error)) return typeof json.error.message === "string" ? json.error.message : JSON.stringify(json.error).slice(0, 200);
  if (typeof json.error === "string") return json.error;
  if (json.success === false) return typeof json.message === "string" && json.message !== "" ? json.message : l10n.t("no message");
  if (typeof json.detail === "string") return json.detail;
  return null;
}

export function finiteNumber(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
