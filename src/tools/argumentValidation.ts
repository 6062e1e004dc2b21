// Turns a tool's JSON Schema into a checker whose messages a model (and a person) can act on.
import Ajv from "ajv";
import type { ErrorObject, ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { JsonObject } from "../relay/types";

export type ArgumentCheck = (args: unknown) => { valid: true } | { valid: false; problems: string[] };

/**
 * Strict mode makes a typo in a tool's own schema (an unknown keyword) fail when the tool is registered,
 * instead of silently accepting anything at call time. `lenient` is for schemas written by others (an
 * external tool's): annotations Ajv does not know, untyped `properties` and union types are accepted, and
 * the rules the schema does state are still enforced.
 */
export function createArgumentValidator(): (schema: JsonObject, toolName: string, options?: { lenient?: boolean }) => ArgumentCheck {
  const ajv = new Ajv({ allErrors: true, strict: true });
  addFormats(ajv);
  let lenientAjv: Ajv | undefined;
  return (schema, toolName, options = {}) => {
    let validate: ValidateFunction;
    try {
      if (options.lenient) {
        lenientAjv ??= addFormats(new Ajv({ allErrors: true, strict: false, logger: false }));
        validate = lenientAjv.compile(schema);
      } else {
        validate = ajv.compile(schema);
      }
    } catch (error) {
      throw new Error(`The parameters schema of tool "${toolName}" is not valid: ${(error as Error).message}`);
    }
    return (args) => {
      if (validate(args)) return { valid: true };
      return { valid: false, problems: describeSchemaErrors(validate.errors ?? []) };
    };
  };
}

export function describeSchemaErrors(errors: readonly ErrorObject[]): string[] {
  const problems = errors.map(describeSchemaError);
  return [...new Set(problems)];
}

function describeSchemaError(error: ErrorObject): string {
  const location = propertyName(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `missing required property "${joinProperty(location, String(params["missingProperty"]))}"`;
    case "additionalProperties":
      return `unexpected property "${joinProperty(location, String(params["additionalProperty"]))}" is not allowed`;
    case "type":
      return `${subject(location)} must be of type ${String(params["type"])}`;
    case "enum":
      return `${subject(location)} must be one of ${JSON.stringify(params["allowedValues"])}`;
    default:
      return `${subject(location)} ${error.message ?? "is not valid"}`;
  }
}

function subject(location: string): string {
  return location === "" ? "the arguments" : `property "${location}"`;
}

function joinProperty(parent: string, child: string): string {
  return parent === "" ? child : `${parent}.${child}`;
}

/** "/items/0/name" -> "items[0].name": reads like the code the model would write. */
function propertyName(instancePath: string): string {
  if (instancePath === "") return "";
  return instancePath
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path === "" ? segment : `${path}.${segment}`), "");
}
