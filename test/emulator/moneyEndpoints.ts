import type { IncomingMessage, ServerResponse } from "node:http";
import type { EmulatorKey } from "./accessControl";
import { authenticate, isModelAllowed } from "./accessControl";
import { sendJson } from "./errorBodies";
import { supportedEndpointTypesOf } from "./chatOnlyModels";
import type { EmulatorProfile } from "./profiles";
import { modelListOf } from "./profiles";
import { CREDITS_PER_USD } from "./responseCost";
import { contextWindowOf } from "./scriptedModels";

// The side endpoints relays have for money, in their real shapes (see src/relay/balanceReaders.ts and
// pricingReaders.ts for the sources): new-api's status, pricing, OpenAI-compatible billing and token
// usage; OpenRouter's key and priced model list; LiteLLM's key info and model info. The emulator's
// credits are new-api quota: 500 000 to the dollar, one credit per input token and two per output token
// by default, so model_ratio 1 and completion_ratio 2, and the same prices in dollars elsewhere.

export type QuotaDisplayType = "USD" | "CNY" | "TOKENS";

/** What the endpoints read from the emulator. */
export interface MoneyView {
  profile: EmulatorProfile;
  keys: readonly EmulatorKey[];
  models: readonly string[];
  /** Credits each key has spent so far. */
  spentBy(keyName: string): number;
  pricePerInputToken: number;
  pricePerOutputToken: number;
  quotaDisplayType: QuotaDisplayType;
  /** new-api's `supported_endpoint_types` of models not on a default channel (chatOnlyModels.ts supportedEndpointTypesOf). */
  endpointTypes?: Readonly<Record<string, readonly string[]>>;
  now(): number;
}

/** new-api's default `USDExchangeRate`, used when the site displays CNY. */
export const EMULATOR_USD_EXCHANGE_RATE = 7.3;
/** new-api reports an unlimited key this way on the OpenAI-compatible billing endpoints. */
const UNLIMITED_SENTINEL = 100_000_000;
/** The context window the priced model lists name for every model. */
export const EMULATOR_CONTEXT_WINDOW = 128_000;

/** Answers the request when it is one of the profile's money endpoints; false when it is not. */
export function answerMoneyRequest(view: MoneyView, method: string, path: string, request: IncomingMessage, response: ServerResponse): boolean {
  if (method !== "GET") return false;
  // The split profile is a new-api relay: the same money endpoints.
  const handler = HANDLERS[view.profile === "split" ? "new-api" : view.profile][path];
  if (!handler) return false;
  handler(view, request, response);
  return true;
}

type Handler = (view: MoneyView, request: IncomingMessage, response: ServerResponse) => void;

const newApiSubscription: Handler = (view, request, response) =>
  withNewApiKey(view, request, response, (key) => {
    const spent = view.spentBy(key.name);
    const total = key.quota === null || key.quota === undefined ? UNLIMITED_SENTINEL : displayed(view, key.quota + spent);
    sendJson(response, 200, { object: "billing_subscription", has_payment_method: true, soft_limit_usd: total, hard_limit_usd: total, system_hard_limit_usd: total, access_until: 0 });
  });

const newApiUsage: Handler = (view, request, response) =>
  withNewApiKey(view, request, response, (key) => sendJson(response, 200, { object: "list", total_usage: displayed(view, view.spentBy(key.name)) * 100 }));

const HANDLERS: Record<Exclude<EmulatorProfile, "split">, Record<string, Handler>> = {
  openai: {},
  minimal: {},
  translated: {},
  "drops-instructions": {},
  "new-api": {
    "/api/status": (view, _request, response) => sendJson(response, 200, { success: true, message: "", data: newApiStatus(view) }),
    "/api/pricing": (view, _request, response) => sendJson(response, 200, newApiPricing(view)),
    // new-api's router registers the route with its slash; gin answers the form without it with a 301.
    "/api/usage/token": (_view, _request, response) => {
      response.writeHead(301, { location: "/api/usage/token/", "content-type": "text/html; charset=utf-8" });
      response.end('<a href="/api/usage/token/">Moved Permanently</a>.\n\n');
    },
    "/api/usage/token/": (view, request, response) => {
      const access = authenticate(request.headers.authorization, view.keys, view.now());
      if (!access.ok) return sendJson(response, 401, { success: false, message: "无效的令牌" });
      const key = access.key;
      const unlimited = key.quota === null || key.quota === undefined;
      const available = unlimited ? 0 : (key.quota as number);
      const used = view.spentBy(key.name);
      sendJson(response, 200, {
        code: true,
        message: "ok",
        data: { object: "token_usage", name: key.name, total_granted: available + used, total_used: used, total_available: available, unlimited_quota: unlimited, model_limits: {}, model_limits_enabled: false, expires_at: 0 },
      });
    },
    "/v1/dashboard/billing/subscription": newApiSubscription,
    "/dashboard/billing/subscription": newApiSubscription,
    "/v1/dashboard/billing/usage": newApiUsage,
    "/dashboard/billing/usage": newApiUsage,
  },
  openrouter: {
    "/v1/key": (view, request, response) => {
      const access = authenticate(request.headers.authorization, view.keys, view.now());
      if (!access.ok) return sendJson(response, 401, { error: { message: "No auth credentials found", code: 401 } });
      const key = access.key;
      const used = view.spentBy(key.name) / CREDITS_PER_USD;
      const remaining = key.quota === null || key.quota === undefined ? null : key.quota / CREDITS_PER_USD;
      sendJson(response, 200, {
        data: { label: `${key.key.slice(0, 10)}...${key.key.slice(-3)}`, limit: remaining === null ? null : remaining + used, usage: used, limit_remaining: remaining, is_free_tier: false, is_provisioning_key: false, limit_reset: null, include_byok_in_limit: false },
      });
    },
  },
  litellm: {
    "/key/info": (view, request, response) => {
      const access = authenticate(request.headers.authorization, view.keys, view.now());
      if (!access.ok) return sendJson(response, 401, { error: { message: "Authentication Error, Invalid proxy server token passed.", type: "auth_error", param: "None", code: "401" } });
      const key = access.key;
      const spend = view.spentBy(key.name) / CREDITS_PER_USD;
      const budget = key.quota === null || key.quota === undefined ? null : key.quota / CREDITS_PER_USD + spend;
      // LiteLLM echoes the key it was asked about: a client must never show this body as it is.
      sendJson(response, 200, { key: key.key, info: { key_name: `sk-...${key.key.slice(-4)}`, key_alias: key.name, spend, max_budget: budget, expires: null, models: key.models ?? [], user_id: null, team_id: null, budget_duration: null, litellm_budget_table: null } });
    },
    "/v1/model/info": (view, request, response) => {
      const access = authenticate(request.headers.authorization, view.keys, view.now());
      if (!access.ok) return sendJson(response, 401, { error: { message: "Authentication Error", type: "auth_error", param: "None", code: "401" } });
      sendJson(response, 200, {
        data: view.models
          .filter((model) => isModelAllowed(access.key, model))
          .map((model) => ({
            model_name: model,
            litellm_params: { model: `openai/${model}` },
            model_info: { id: model, mode: "responses", input_cost_per_token: view.pricePerInputToken / CREDITS_PER_USD, output_cost_per_token: view.pricePerOutputToken / CREDITS_PER_USD, cache_read_input_token_cost: view.pricePerInputToken / 2 / CREDITS_PER_USD, max_input_tokens: contextWindowOf(model, EMULATOR_CONTEXT_WINDOW), max_output_tokens: 16_384 },
          })),
      });
    },
  },
};

/** The model list the profile sends: OpenRouter's carries each model's price per token and context length. */
export function modelListFor(view: Pick<MoneyView, "profile" | "pricePerInputToken" | "pricePerOutputToken" | "endpointTypes">, ids: readonly string[]): unknown {
  if (view.profile !== "openrouter") return modelListOf(view.profile, ids, view.endpointTypes);
  const perToken = (credits: number) => String(credits / CREDITS_PER_USD);
  return {
    data: ids.map((id) => ({
      id,
      canonical_slug: id,
      name: `Emulator: ${id}`,
      created: 1_700_000_000,
      description: "A scripted model of the relay emulator.",
      context_length: contextWindowOf(id, EMULATOR_CONTEXT_WINDOW),
      architecture: { modality: "text->text", input_modalities: ["text"], output_modalities: ["text"], tokenizer: "Other", instruct_type: null },
      pricing: { prompt: perToken(view.pricePerInputToken), completion: perToken(view.pricePerOutputToken), request: "0", image: "0", web_search: "0", internal_reasoning: "0", input_cache_read: perToken(view.pricePerInputToken / 2) },
      top_provider: { context_length: contextWindowOf(id, EMULATOR_CONTEXT_WINDOW), max_completion_tokens: 16_384, is_moderated: false },
      per_request_limits: null,
      supported_parameters: ["tools", "tool_choice", "max_tokens", "reasoning"],
    })),
  };
}

function withNewApiKey(view: MoneyView, request: IncomingMessage, response: ServerResponse, answer: (key: EmulatorKey) => void): void {
  const access = authenticate(request.headers.authorization, view.keys, view.now());
  if (!access.ok) return sendJson(response, 401, { error: { message: "无效的令牌", type: "new_api_error" } });
  answer(access.key);
}

/** Credits in the site's display unit, as controller/billing.go converts them. */
function displayed(view: MoneyView, credits: number): number {
  switch (view.quotaDisplayType) {
    case "TOKENS":
      return credits;
    case "CNY":
      return (credits / CREDITS_PER_USD) * EMULATOR_USD_EXCHANGE_RATE;
    default:
      return credits / CREDITS_PER_USD;
  }
}

function newApiStatus(view: MoneyView): Record<string, unknown> {
  return {
    version: "v0.9.0-emulator",
    system_name: "New API",
    quota_per_unit: CREDITS_PER_USD,
    display_in_currency: view.quotaDisplayType !== "TOKENS",
    quota_display_type: view.quotaDisplayType,
    custom_currency_symbol: "¤",
    custom_currency_exchange_rate: 1,
    usd_exchange_rate: EMULATOR_USD_EXCHANGE_RATE,
    price: EMULATOR_USD_EXCHANGE_RATE,
    top_up_link: "",
    docs_link: "",
  };
}

function newApiPricing(view: MoneyView): Record<string, unknown> {
  const perToken = view.models.map((model) => ({
    model_name: model,
    quota_type: 0,
    model_ratio: view.pricePerInputToken,
    model_price: 0,
    owner_by: "",
    completion_ratio: view.pricePerOutputToken / view.pricePerInputToken,
    cache_ratio: 0.5,
    enable_groups: ["default", "vip"],
    supported_endpoint_types: supportedEndpointTypesOf(model, view.endpointTypes),
  }));
  // A model priced per call has no per-token price; readers must leave it out rather than call it free.
  const perCall = { model_name: "image-per-call", quota_type: 1, model_ratio: 0, model_price: 0.04, owner_by: "", completion_ratio: 0, enable_groups: ["default"], supported_endpoint_types: ["image-generation"] };
  return { success: true, data: [...perToken, perCall], vendors: [], group_ratio: { default: 1, vip: 1.5 }, usable_group: { default: "默认分组", vip: "VIP" }, supported_endpoint: {}, auto_groups: [] };
}
