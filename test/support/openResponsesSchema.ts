import path from "node:path";
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { ErrorObject, ValidateFunction } from "ajv";
import { referenceDirectory } from "./fixturePaths";

// The Open Responses document is OpenAPI 3.1, whose schema dialect is JSON Schema 2020-12.
const OPENAPI_DOCUMENT_PATH = path.join(referenceDirectory, "openresponses-openapi.json");
const DOCUMENT_ID = "https://openresponses.local/openapi.json";
const REQUEST_BODY_SCHEMA_NAME = "CreateResponseBody";

export type RequestValidation = { valid: true } | { valid: false; errors: string; param: string | null };

export interface RequestValidationOptions {
  /**
   * The Open Responses schema requires `type: "message"` on every message item, while the real API
   * (and the relay spec, which shows `{role, content}`) accepts the "easy input message" without it.
   * By default such items are validated as if `type: "message"` were present; set this to see the
   * schema's own verdict.
   */
  requireMessageType?: boolean;
}

let schemaDocument: Ajv2020 | undefined;
const compiledValidators = new Map<string, ValidateFunction>();

function loadedDocument(): Ajv2020 {
  if (schemaDocument) return schemaDocument;
  const document = JSON.parse(readFileSync(OPENAPI_DOCUMENT_PATH, "utf8")) as Record<string, unknown>;
  const ajv = new Ajv2020({
    // The document carries OpenAPI-only keywords (discriminator, example, x-*) and top-level
    // OpenAPI members; they are annotations here, so unknown keywords must not be fatal.
    strict: false,
    // ajv's discriminator support demands const/enum tags in every oneOf branch, which
    // ItemReferenceParam (anyOf-typed tag) does not have; plain oneOf gives the same verdicts.
    discriminator: false,
    allErrors: false,
    validateSchema: false,
  });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  schemaDocument = ajv;
  return ajv;
}

/** The compiled validator for `#/components/schemas/<name>`, compiled once. */
function componentValidator(name: string): ValidateFunction {
  const cached = compiledValidators.get(name);
  if (cached) return cached;
  const validator = loadedDocument().getSchema(`${DOCUMENT_ID}#/components/schemas/${name}`);
  if (!validator) throw new Error(`schema ${name} not found in ${OPENAPI_DOCUMENT_PATH}`);
  compiledValidators.set(name, validator);
  return validator;
}

function requestValidator(): ValidateFunction {
  return componentValidator(REQUEST_BODY_SCHEMA_NAME);
}

function withEasyInputMessageTypes(body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const input = (body as { input?: unknown }).input;
  if (!Array.isArray(input)) return body;
  const typedInput = input.map((item: unknown) => {
    if (typeof item === "object" && item !== null && !Array.isArray(item) && "role" in item && !("type" in item)) {
      return { type: "message", ...item };
    }
    return item;
  });
  return { ...body, input: typedInput };
}

/** `/input/0/content` -> `input[0].content`, the way the service names a parameter in errors. */
function paramFromInstancePath(instancePath: string): string | null {
  const segments = instancePath.split("/").filter((segment) => segment.length > 0);
  if (segments.length === 0) return null;
  return segments
    .map((segment, index) => (/^\d+$/.test(segment) ? `[${segment}]` : index === 0 ? segment : `.${segment}`))
    .join("");
}

function describeErrors(errors: readonly ErrorObject[]): string {
  // oneOf failures list every branch; the first few lines are enough to see what went wrong.
  const lines = errors.slice(0, 8).map((error) => `body${error.instancePath.replace(/\//g, ".")} ${error.message ?? "is invalid"}`);
  if (errors.length > lines.length) lines.push(`(${errors.length - lines.length} more)`);
  return lines.join("; ");
}

/** Validates a request body against CreateResponseBody from the Open Responses OpenAPI document. */
export function validateResponseRequest(body: unknown, options: RequestValidationOptions = {}): RequestValidation {
  const validator = requestValidator();
  const candidate = options.requireMessageType ? body : withEasyInputMessageTypes(body);
  if (validator(candidate)) return { valid: true };
  const errors = validator.errors ?? [];
  // The deepest path points at the offending field rather than at the enclosing oneOf.
  const deepest = errors.reduce<ErrorObject | undefined>(
    (best, error) => (!best || error.instancePath.length > best.instancePath.length ? error : best),
    undefined,
  );
  return { valid: false, errors: describeErrors(errors), param: deepest ? paramFromInstancePath(deepest.instancePath) : null };
}

export type SchemaCheck = { valid: true } | { valid: false; errors: string };

function check(validator: ValidateFunction, value: unknown): SchemaCheck {
  return validator(value) ? { valid: true } : { valid: false, errors: describeErrors(validator.errors ?? []) };
}

/** Validates a non-streaming response body against ResponseResource. */
export function validateResponseResource(body: unknown): SchemaCheck {
  return check(componentValidator("ResponseResource"), body);
}

let streamingEventSchemaNames: Map<string, string> | undefined;

/** Maps each event `type` to its `...StreamingEvent` component, read from the document itself. */
function streamingEventSchemaName(type: string): string | undefined {
  if (!streamingEventSchemaNames) {
    const document = JSON.parse(readFileSync(OPENAPI_DOCUMENT_PATH, "utf8")) as { components: { schemas: Record<string, { properties?: { type?: { enum?: string[] } } }> } };
    streamingEventSchemaNames = new Map();
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      const type = schema.properties?.type?.enum?.[0];
      if (name.endsWith("StreamingEvent") && type) streamingEventSchemaNames.set(type, name);
    }
  }
  return streamingEventSchemaNames.get(type);
}

/** Validates one parsed SSE `data:` payload against the streaming event schema for its `type`. */
export function validateStreamingEvent(event: unknown): SchemaCheck {
  const type = typeof event === "object" && event !== null ? (event as { type?: unknown }).type : undefined;
  const name = typeof type === "string" ? streamingEventSchemaName(type) : undefined;
  if (!name) return { valid: false, errors: `no streaming event schema for type ${JSON.stringify(type)}` };
  return check(componentValidator(name), event);
}
