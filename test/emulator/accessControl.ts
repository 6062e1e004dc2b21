import type { ServiceErrorFields } from "./errorBodies";

/** An API key as the console would hold it. Objects are live: tests may change them between requests. */
export interface EmulatorKey {
  key: string;
  name: string;
  enabled?: boolean;
  /** Epoch ms; null or absent = never expires. */
  expiresAt?: number | null;
  /** Remaining quota in credits; null or absent = unlimited. */
  quota?: number | null;
  /** Allowed model ids; null or absent = all models. */
  models?: string[] | null;
}

export interface AccessRejection {
  status: number;
  error: ServiceErrorFields;
}

export type KeyCheck = { ok: true; key: EmulatorKey } | { ok: false; rejection: AccessRejection };

function invalidKey(message: string, code: string): KeyCheck {
  return { ok: false, rejection: { status: 401, error: { message, type: "invalid_request_error", code } } };
}

export function authenticate(authorizationHeader: string | undefined, keys: readonly EmulatorKey[], now: number): KeyCheck {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorizationHeader ?? "");
  if (!match) return invalidKey("You didn't provide an API key. Send it as 'Authorization: Bearer <key>'.", "invalid_api_key");
  const presented = match[1];
  const key = keys.find((candidate) => candidate.key === presented);
  if (!key) return invalidKey("Incorrect API key provided.", "invalid_api_key");
  if (key.enabled === false) return invalidKey(`The API key '${key.name}' has been disabled.`, "key_disabled");
  if (key.expiresAt !== undefined && key.expiresAt !== null && key.expiresAt <= now) {
    return invalidKey(`The API key '${key.name}' has expired.`, "key_expired");
  }
  return { ok: true, key };
}

export function isModelAllowed(key: EmulatorKey, model: string): boolean {
  return key.models === undefined || key.models === null || key.models.includes(model);
}

export function checkModelAccess(key: EmulatorKey, model: string, knownModels: readonly string[]): AccessRejection | null {
  if (!knownModels.includes(model)) {
    return { status: 404, error: { message: `The model '${model}' does not exist.`, type: "invalid_request_error", code: "model_not_found", param: "model" } };
  }
  if (!isModelAllowed(key, model)) {
    return { status: 403, error: { message: `The API key '${key.name}' is not allowed to use model '${model}'.`, type: "invalid_request_error", code: "model_not_allowed", param: "model" } };
  }
  return null;
}

/** Both the account balance and the key's own quota must cover the estimated cost before serving. */
export function checkFunds(key: EmulatorKey, balance: number, estimatedCost: number): AccessRejection | null {
  if (balance < estimatedCost) {
    return {
      status: 429,
      error: { message: `Insufficient account balance: this request needs about ${estimatedCost} credits, ${balance} available.`, type: "insufficient_quota", code: "insufficient_quota" },
    };
  }
  if (key.quota !== undefined && key.quota !== null && key.quota < estimatedCost) {
    return {
      status: 429,
      error: { message: `The API key '${key.name}' has insufficient quota: this request needs about ${estimatedCost} credits, ${key.quota} left.`, type: "insufficient_quota", code: "insufficient_token_quota" },
    };
  }
  return null;
}
