// The relay emulator: one HTTP server that answers /v1/models and /v1/responses (and /v1/chat/completions,
// chatCompletions.ts) the way a relay does,
// step by step (key, body, schema, model access, funds, generation, faults, the profile's framing), with
// a usage log and queued misbehaviour for tests. Kept in one file, longer than most, because that
// request path reads best top to bottom; generation, faults, profiles and framing live beside it.
import { imagesOfContent } from "./inputImages";
import { createServer } from "node:http";
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { validateResponseRequest } from "../support/openResponsesSchema";
import type { AccessRejection, EmulatorKey } from "./accessControl";
import { authenticate, checkFunds, checkModelAccess, isModelAllowed } from "./accessControl";
import { BodyWriter, delay } from "./bodyWriter";
import type { TransportPlan } from "./bodyWriter";
import type { ServiceErrorFields } from "./errorBodies";
import { messageWithRequestId, sendJson } from "./errorBodies";
import type { ChatEndpointView } from "./chatCompletions";
import { answerChatCompletion } from "./chatCompletions";
import { CHAT_ONLY_MODEL_IDS, responsesRefusalOf } from "./chatOnlyModels";
import type { Fault } from "./faults";
import { applyEventFault, garbleStreamedCalls, isCannedAnswerFault, isEventFault, sendCannedFault } from "./faults";
import { newId } from "./ids";
import { plannedOutputTokens } from "./outputPlan";
import type { EmulatorProfile } from "./profiles";
import { dropsInstructions, errorBodyOf, framingOf, profileEvents, requestIdHeaderOf, strictInputProblem } from "./profiles";
import type { QueuedReplay, ReplayOptions } from "./replay";
import { writeReplay } from "./replay";
import type { ResponseContext, WireEvent } from "./responseEvents";
import { generateResponse } from "./responseEvents";
import type { MoneyView, QuotaDisplayType } from "./moneyEndpoints";
import { answerMoneyRequest, modelListFor } from "./moneyEndpoints";
import { CREDITS_PER_USD, withBilledCost } from "./responseCost";
import { SCRIPTED_DELTA_INTERVAL_MS, SCRIPTED_MODEL_IDS, contextWindowProblem, planOutput, reasoningEffortProblem } from "./scriptedModels";
import type { StreamPacing } from "./sseWriter";
import { SSE_CONTENT_TYPE, writeSseEvents } from "./sseWriter";
import { countInputTokens } from "./tokenCounting";

export type { EmulatorKey } from "./accessControl";
export type { Fault } from "./faults";
export type { EmulatorProfile } from "./profiles";
export type { ReplayOptions } from "./replay";

export interface EmulatorOptions {
  /** Keys the relay accepts. Default: one unlimited key, exposed as `defaultKey`. */
  keys?: EmulatorKey[];
  /** Account balance in credits. Default: plenty. */
  balance?: number;
  /** Model ids the relay knows. Default: the scripted models (echo, tools, tools-parallel, reasoning, long). */
  models?: string[];
  /** Which kind of relay to behave like (see profiles.ts). Default "openai". */
  profile?: EmulatorProfile;
  /** Default "x-service-request-id" (openai profile), "x-request-id" (minimal, translated); new-api always sends x-oneapi-request-id. */
  requestIdHeader?: string;
  /** A proxy in front of the relay adds its own x-request-id (with another id) to every answer. */
  proxyRequestId?: boolean;
  /** Credits per input token. Default 1. */
  pricePerInputToken?: number;
  /** Credits per output token. Default 2. */
  pricePerOutputToken?: number;
  /** Clock for key expiry, epoch ms. Default Date.now. */
  now?: () => number;
  /** Port on 127.0.0.1. Default 0: a random free port. */
  port?: number;
  /** Pause before every streamed delta, so a person can watch an answer arrive. Default none. */
  deltaIntervalMs?: number;
  /** How the new-api profile's billing endpoints show money (its `quota_display_type`). Default "USD". */
  quotaDisplayType?: QuotaDisplayType;
  /** false: the new-api or split profile's model list says nothing of endpoints (as one-api's). Default true. */
  listsEndpointTypes?: boolean;
  /** new-api's `supported_endpoint_types` for models not on a default channel (default: ["openai"] for every model). */
  endpointTypes?: Readonly<Record<string, readonly string[]>>;
  /**
   * Chat-only models (chatOnlyModels.ts) this relay serves beside the scripted ones, under any profile: listed,
   * refusing /v1/responses as their relays do, answering on /v1/chat/completions. The split profile serves them all.
   */
  chatOnlyModels?: readonly string[];
}

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON, or undefined when the body was empty or not JSON. */
  body: unknown;
  rawBody: string;
  requestId: string;
  /** The media type of each `input_image` part of the input that carries a data URL ("image/png"), in order. */
  inputImages: string[];
}

export interface UsageRecord {
  requestId: string;
  keyName: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  /** How the relay saw the response end: completed, incomplete, failed or error_event. */
  status: string;
}

export interface RelayEmulator {
  /** "http://127.0.0.1:PORT", without /v1. */
  readonly baseUrl: string;
  /** A valid key: the generated one, or the first of `options.keys`. */
  readonly defaultKey: string;
  /** The live key objects; change them to disable a key, spend its quota and so on. */
  readonly keys: EmulatorKey[];
  readonly received: ReceivedRequest[];
  /** The kind of relay it behaves like; may be changed between requests. */
  profile: EmulatorProfile;
  /** The header that carries the relay's own request id under the current profile. */
  readonly requestIdHeader: string;
  postCount(): number;
  readonly usageLog: UsageRecord[];
  balance: number;
  queueFault(fault: Fault): void;
  queueReplay(sse: string | Buffer, options?: ReplayOptions): void;
  queueJsonBody(body: unknown, status?: number): void;
  /** The next GET /v1/models fails the new-api way: HTTP 200 with `{"success": false, "message": ...}`. */
  failNextModelList(message: string): void;
  /** Serves (and lists) these models too, beside the profile's own; each call replaces the earlier list. */
  serveAlso(models: readonly string[]): void;
  close(): Promise<void>;
}

type QueuedAnswer =
  | { kind: "fault"; fault: Fault }
  | { kind: "replay"; replay: QueuedReplay }
  | { kind: "json"; body: unknown; status: number };

const PLENTY_OF_CREDITS = 1_000_000_000;

interface RequestBodyView {
  model: string;
  input: unknown;
  tools?: unknown;
  tool_choice?: unknown;
  include?: unknown;
  max_output_tokens?: number | null;
  stream?: boolean;
  store?: boolean;
  instructions?: string | null;
  reasoning?: unknown;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** The data URL images of a Responses body's input messages, by media type. */
function inputImagesOf(body: unknown): string[] {
  const input = typeof body === "object" && body !== null ? (body as { input?: unknown }).input : undefined;
  if (!Array.isArray(input)) return [];
  return input.flatMap((item: unknown) => imagesOfContent(typeof item === "object" && item !== null ? (item as { content?: unknown }).content : undefined).map((image) => image.mediaType));
}

function parseJson(rawBody: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(rawBody) };
  } catch {
    return { ok: false };
  }
}

class RelayEmulatorServer implements RelayEmulator {
  readonly received: ReceivedRequest[] = [];
  readonly usageLog: UsageRecord[] = [];
  readonly keys: EmulatorKey[];
  readonly defaultKey: string;
  balance: number;
  profile: EmulatorProfile;
  private readonly deltaIntervalMs: number | undefined;
  private readonly configuredRequestIdHeader: string | undefined;
  private readonly proxyRequestId: boolean;
  private modelListFailure: string | null = null;
  baseUrl = "";

  private readonly server: Server;
  private readonly queue: QueuedAnswer[] = [];
  private readonly ownModels: readonly string[];
  private models: readonly string[];
  private readonly pricePerInputToken: number;
  private readonly pricePerOutputToken: number;
  private readonly now: () => number;
  private readonly port: number;
  private responsesPosts = 0;
  private readonly quotaDisplayType: QuotaDisplayType;
  private readonly listsEndpointTypes: boolean;
  private readonly endpointTypes: Readonly<Record<string, readonly string[]>>;
  private readonly chatOnlyModels: readonly string[];

  constructor(options: EmulatorOptions) {
    this.keys = options.keys ?? [{ key: newId("sk-emulator", 24), name: "default", enabled: true, expiresAt: null, quota: null, models: null }];
    this.defaultKey = this.keys[0]?.key ?? "";
    this.balance = options.balance ?? PLENTY_OF_CREDITS;
    this.deltaIntervalMs = options.deltaIntervalMs;
    this.chatOnlyModels = options.chatOnlyModels ?? (options.profile === "split" ? CHAT_ONLY_MODEL_IDS : []);
    this.ownModels = options.models ?? [...SCRIPTED_MODEL_IDS, ...this.chatOnlyModels];
    this.models = this.ownModels;
    this.profile = options.profile ?? "openai";
    this.configuredRequestIdHeader = options.requestIdHeader?.toLowerCase();
    this.proxyRequestId = options.proxyRequestId === true;
    this.pricePerInputToken = options.pricePerInputToken ?? 1;
    this.pricePerOutputToken = options.pricePerOutputToken ?? 2;
    this.now = options.now ?? Date.now;
    this.port = options.port ?? 0;
    this.quotaDisplayType = options.quotaDisplayType ?? "USD";
    this.listsEndpointTypes = options.listsEndpointTypes !== false;
    this.endpointTypes = options.endpointTypes ?? {};
    this.server = createServer({ noDelay: true, keepAliveTimeout: 5_000 }, (request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) {
          this.sendError(response, 500, { message: `Emulator failure: ${String(error)}`, type: "server_error", code: "emulator_error" }, String(response.getHeader(this.requestIdHeader)));
        } else {
          response.destroy();
        }
      });
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(this.port, "127.0.0.1", () => resolve());
    });
    const address = this.server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${address.port}`;
  }

  get requestIdHeader(): string {
    return requestIdHeaderOf(this.profile, this.configuredRequestIdHeader);
  }

  postCount(): number {
    return this.responsesPosts;
  }

  failNextModelList(message: string): void {
    this.modelListFailure = message;
  }

  serveAlso(models: readonly string[]): void {
    this.models = [...this.ownModels, ...models.filter((model) => !this.ownModels.includes(model))];
  }

  queueFault(fault: Fault): void {
    this.queue.push({ kind: "fault", fault });
  }

  queueReplay(sse: string | Buffer, options: ReplayOptions = {}): void {
    this.queue.push({ kind: "replay", replay: { body: typeof sse === "string" ? Buffer.from(sse, "utf8") : sse, options } });
  }

  queueJsonBody(body: unknown, status = 200): void {
    this.queue.push({ kind: "json", body, status });
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    // Stalled streams and idle keep-alive sockets would otherwise hold close() open forever.
    this.server.closeAllConnections();
    await closed;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const requestId = newId("req", 16);
    response.setHeader(this.requestIdHeader, requestId);
    if (this.proxyRequestId && this.requestIdHeader !== "x-request-id") response.setHeader("x-request-id", newId("proxy", 8));
    const rawBody = await readBody(request);
    const parsed = rawBody.length > 0 ? parseJson(rawBody) : { ok: false as const };
    const path = (request.url ?? "/").split("?")[0];
    const method = request.method ?? "GET";
    this.received.push({ method, path, headers: request.headers, body: parsed.ok ? parsed.value : undefined, rawBody, requestId, inputImages: parsed.ok ? inputImagesOf(parsed.value) : [] });

    if (path === "/v1/models" && method === "GET") return this.listModels(request, response, requestId);
    if (path === "/v1/responses" && method === "POST") {
      this.responsesPosts += 1;
      return this.createResponse(request, response, requestId, rawBody, parsed);
    }
    if (path === "/v1/chat/completions" && method === "POST") {
      this.responsesPosts += 1;
      return this.createChatCompletion(request, response, requestId, parsed);
    }
    if (answerMoneyRequest(this.moneyView(), method, path, request, response)) return;
    const known = path === "/v1/models" || path === "/v1/responses" || path === "/v1/chat/completions";
    this.sendError(
      response,
      known ? 405 : 404,
      { message: `Invalid URL (${method} ${path})`, type: "invalid_request_error", code: known ? "method_not_allowed" : "not_found" },
      requestId,
    );
  }

  private reject(response: ServerResponse, rejection: AccessRejection, requestId: string): void {
    this.sendError(response, rejection.status, rejection.error, requestId);
  }

  /** An error body in the current profile's style (new-api rewrites status, code and message). */
  private sendError(response: ServerResponse, status: number, fields: ServiceErrorFields, requestId: string): void {
    const answer = errorBodyOf(this.profile, status, fields, requestId);
    sendJson(response, answer.status, answer.body);
  }

  private listModels(request: IncomingMessage, response: ServerResponse, requestId: string): void {
    const access = authenticate(request.headers.authorization, this.keys, this.now());
    if (!access.ok) return this.reject(response, access.rejection, requestId);
    if (this.modelListFailure !== null) {
      const message = this.modelListFailure;
      this.modelListFailure = null;
      return sendJson(response, 200, { success: false, message });
    }
    const view = this.listsEndpointTypes ? this.moneyView() : { ...this.moneyView(), profile: "openai" as const };
    sendJson(response, 200, modelListFor(view, this.models.filter((model) => isModelAllowed(access.key, model))));
  }

  private async createResponse(
    request: IncomingMessage,
    response: ServerResponse,
    requestId: string,
    rawBody: string,
    parsed: { ok: true; value: unknown } | { ok: false },
  ): Promise<void> {
    // Every POST consumes one queued answer, whatever happens to the request afterwards.
    const queued = this.queue.shift();
    if (queued?.kind === "json" || queued?.kind === "replay") return this.answerQueued(response, queued);
    const fault = queued?.fault;
    if (fault && isCannedAnswerFault(fault)) return sendCannedFault(response, fault, requestId);
    // A chat-only model (any under the split profile): the relay's own refusal, before anything else is checked.
    const model = parsed.ok ? (parsed.value as { model?: unknown }).model : undefined;
    const refusal = this.profile === "split" || this.chatOnlyModels.includes(String(model)) ? responsesRefusalOf(model) : null;
    if (refusal) return sendJson(response, refusal.status, { error: { ...refusal.fields, message: refusal.status === 404 ? refusal.fields.message : messageWithRequestId(refusal.fields.message, requestId) } });

    const access = authenticate(request.headers.authorization, this.keys, this.now());
    if (!access.ok) return this.reject(response, access.rejection, requestId);
    const key = access.key;

    if (!parsed.ok) {
      return this.sendError(response, 400, { message: rawBody.length === 0 ? "The request body is empty; send a JSON object." : "We could not parse the JSON body of your request.", type: "invalid_request_error", code: "invalid_request", param: null }, requestId);
    }
    const validation = validateResponseRequest(parsed.value);
    if (!validation.valid) {
      return this.sendError(response, 400, { message: `Invalid request body: ${validation.errors}`, type: "invalid_request_error", code: "invalid_request", param: validation.param }, requestId);
    }
    const body = parsed.value as Partial<RequestBodyView>;
    // The schema allows these to be absent or null; the relay spec requires them.
    if (typeof body.model !== "string") {
      return this.sendError(response, 400, { message: "Missing required parameter: 'model'.", type: "invalid_request_error", code: "invalid_request", param: "model" }, requestId);
    }
    if (body.input === undefined || body.input === null) {
      return this.sendError(response, 400, { message: "Missing required parameter: 'input'.", type: "invalid_request_error", code: "invalid_request", param: "input" }, requestId);
    }
    // A gateway that drops `instructions` on its way to the model: nothing after this point sees them.
    const requestBody = dropsInstructions(this.profile) ? { ...(body as RequestBodyView), instructions: undefined } : (body as RequestBodyView);
    const strictProblem = strictInputProblem(this.profile, requestBody);
    if (strictProblem) return this.sendError(response, 400, strictProblem, requestId);

    const modelRejection = checkModelAccess(key, requestBody.model, this.models);
    if (modelRejection) return this.reject(response, modelRejection, requestId);
    const effortProblem = reasoningEffortProblem(requestBody);
    if (effortProblem) return this.sendError(response, 400, effortProblem, requestId);
    // The instructions are input too: a relay counts (and bills) them.
    const inputTokens = countInputTokens(requestBody.input) + (typeof requestBody.instructions === "string" ? Math.ceil(requestBody.instructions.length / 4) : 0);
    const lengthProblem = contextWindowProblem(requestBody.model, inputTokens);
    if (lengthProblem) return this.sendError(response, 400, lengthProblem, requestId);

    const plan = planOutput(requestBody);
    // Relays pre-charge against max_output_tokens when given; otherwise the planned length stands in.
    const estimatedOutputTokens = requestBody.max_output_tokens ?? plannedOutputTokens(plan);
    const estimatedCost = this.cost(inputTokens, estimatedOutputTokens);
    const fundsRejection = checkFunds(key, this.balance, estimatedCost);
    if (fundsRejection) return this.reject(response, fundsRejection, requestId);

    const context: ResponseContext = {
      responseId: newId("resp", 24),
      model: requestBody.model,
      createdAt: Math.floor(Date.now() / 1000),
      inputTokens,
      request: { tools: requestBody.tools, max_output_tokens: requestBody.max_output_tokens, store: requestBody.store, instructions: requestBody.instructions, include: requestBody.include },
    };
    const generated = generateResponse(plan, context);
    let events: WireEvent[] = generated.events;
    let outputTokens = generated.outputTokens;
    let status = String(generated.response.status);
    let nonStreamAnswer: { status: number; body: unknown } = { status: 200, body: generated.response };
    if (fault && isEventFault(fault)) {
      const faulted = applyEventFault(generated, fault, context, requestId);
      events = faulted.events;
      outputTokens = faulted.outputTokens;
      status = faulted.outcome;
      nonStreamAnswer = faulted.nonStreamAnswer;
    }
    if (fault?.kind === "garble_streamed_calls") events = garbleStreamedCalls(events);
    events = profileEvents(this.profile, events);
    this.charge({ requestId, key, model: requestBody.model, inputTokens, outputTokens, status });
    const billed = withBilledCost(this.profile, { events, body: nonStreamAnswer.body, streamed: requestBody.stream === true }, this.cost(inputTokens, outputTokens) / CREDITS_PER_USD);
    events = billed.events;
    nonStreamAnswer = { ...nonStreamAnswer, body: billed.body };
    for (const [name, value] of Object.entries(billed.headers)) response.setHeader(name, value);

    const transport: TransportPlan = {
      disconnectAfterBytes: fault?.kind === "disconnect" ? fault.afterBytes : undefined,
      stallAfterBytes: fault?.kind === "stall" ? fault.afterBytes : undefined,
    };
    const writer = new BodyWriter(response, transport);
    if (requestBody.stream === true) {
      response.writeHead(200, { "content-type": SSE_CONTENT_TYPE, "cache-control": "no-cache", "x-accel-buffering": "no" });
      const pacing: StreamPacing = {
        deltaIntervalMs: fault?.kind === "drip" ? fault.intervalMs : (SCRIPTED_DELTA_INTERVAL_MS[requestBody.model] ?? this.deltaIntervalMs),
        stallAfterFirstDelta: fault?.kind === "stall" && fault.afterBytes === undefined,
      };
      return writeSseEvents(writer, events, pacing, framingOf(this.profile));
    }
    const text = JSON.stringify(nonStreamAnswer.body);
    if (fault?.kind === "drip") await delay(fault.intervalMs);
    response.writeHead(nonStreamAnswer.status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
    if (fault?.kind === "stall" && fault.afterBytes === undefined) return writer.stall();
    if ((await writer.write(text)) === "written") writer.end();
  }

  /** POST /v1/chat/completions (chatCompletions.ts); queued replays and JSON bodies answer it as they answer /v1/responses. */
  private async createChatCompletion(request: IncomingMessage, response: ServerResponse, requestId: string, parsed: { ok: true; value: unknown } | { ok: false }): Promise<void> {
    const queued = this.queue.shift();
    if (queued?.kind === "json" || queued?.kind === "replay") return this.answerQueued(response, queued);
    const view: ChatEndpointView = {
      keys: this.keys,
      models: this.models,
      balance: this.balance,
      now: this.now,
      deltaIntervalMs: this.deltaIntervalMs,
      cost: (inputTokens, outputTokens) => this.cost(inputTokens, outputTokens),
      charge: (record) => this.charge(record),
      reject: (answer, rejection, id) => this.reject(answer, rejection, id),
      sendError: (answer, status, fields, id) => this.sendError(answer, status, fields, id),
    };
    return answerChatCompletion(view, request, response, requestId, parsed, queued?.fault);
  }

  private async answerQueued(response: ServerResponse, queued: Exclude<QueuedAnswer, { kind: "fault" }>): Promise<void> {
    if (queued.kind === "json") return sendJson(response, queued.status, queued.body);
    // A replay with a capture's own headers is that capture's answer: its request id, not the emulator's.
    if (queued.replay.options.headers) response.removeHeader(this.requestIdHeader);
    response.writeHead(queued.replay.options.status ?? 200, { "content-type": SSE_CONTENT_TYPE, "cache-control": "no-cache", ...queued.replay.options.headers });
    return writeReplay(new BodyWriter(response, {}), queued.replay);
  }

  private moneyView(): MoneyView {
    return {
      profile: this.profile,
      keys: this.keys,
      models: this.models,
      spentBy: (keyName) => this.usageLog.filter((record) => record.keyName === keyName).reduce((sum, record) => sum + record.cost, 0),
      pricePerInputToken: this.pricePerInputToken,
      pricePerOutputToken: this.pricePerOutputToken,
      quotaDisplayType: this.quotaDisplayType,
      endpointTypes: this.endpointTypes,
      now: this.now,
    };
  }

  private cost(inputTokens: number, outputTokens: number): number {
    return inputTokens * this.pricePerInputToken + outputTokens * this.pricePerOutputToken;
  }

  /** Charges actual usage to both the account and the key, and writes the console usage log line. */
  private charge(record: { requestId: string; key: EmulatorKey; model: string; inputTokens: number; outputTokens: number; status: string }): void {
    const cost = this.cost(record.inputTokens, record.outputTokens);
    this.balance -= cost;
    if (record.key.quota !== undefined && record.key.quota !== null) record.key.quota -= cost;
    this.usageLog.push({ requestId: record.requestId, keyName: record.key.name, model: record.model, inputTokens: record.inputTokens, outputTokens: record.outputTokens, cost, status: record.status });
  }
}

/** Starts a relay emulator on 127.0.0.1 with a random free port. */
export async function startRelayEmulator(options: EmulatorOptions = {}): Promise<RelayEmulator> {
  const emulator = new RelayEmulatorServer(options);
  await emulator.listen();
  return emulator;
}
