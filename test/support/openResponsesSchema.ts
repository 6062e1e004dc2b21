import path from "node:path";
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { ErrorObject, ValidateFunction } from "ajv";

// The Open Responses document is OpenAPI 3.1, whose schema dialect is JSON Schema 2020-12.
const OPENAPI_DOCUMENT_PATH = path.resolve(__dirname, "../../../shared/reference/openresponses-openapi.json");
const DOCUMENT_ID = "https://openresponses.local/openapi.json";
const REQUEST_BODY_SCHEMA_REF = `${DOCUMENT_ID}#/components/schemas/CreateResponseBody`;

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

let compiledRequestValidator: ValidateFunction | undefined;

function requestValidator(): ValidateFunction {
  if (compiledRequestValidator) return compiledRequestValidator;
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
  const validator = ajv.getSchema(REQUEST_BODY_SCHEMA_REF);
  if (!validator) throw new Error(`schema ${REQUEST_BODY_SCHEMA_REF} not found`);
  compiledRequestValidator = validator;
  return validator;
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
