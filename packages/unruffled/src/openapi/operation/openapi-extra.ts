import { ValueError } from "../../errors.ts";
import { isPlainObject, type OpenApiExtra } from "../../route/declare/openapi-extra.ts";

/**
 * Merges a route's `openapiExtra` into its generated operation, as FastAPI merges `openapi_extra`:
 * two objects key by key, two lists one after the other, anything else the extra's value. A value
 * of another kind than the operation's own (a string for `responses`) is refused, naming it: the
 * document would not be OpenAPI.
 *
 * @example mergeOpenApiExtra(operation, { "x-internal": true }, label) // operation["x-internal"] === true
 */
export function mergeOpenApiExtra(target: Record<string, unknown>, extra: OpenApiExtra, label: string): void {
  merge(target, extra, "openapiExtra", label);
}

function merge(target: Record<string, unknown>, extra: OpenApiExtra, at: string, label: string): void {
  for (const [key, value] of Object.entries(extra)) {
    const where = /^[A-Za-z_$][\w$]*$/.test(key) ? `${at}.${key}` : `${at}[${JSON.stringify(key)}]`;
    const own = target[key];
    // The operation's own value, else the kind OpenAPI gives an operation's field.
    const wanted = key in target ? kindOf(own) : at === "openapiExtra" ? OPERATION_FIELDS[key] : undefined;
    if (wanted !== undefined && wanted !== kindOf(value)) {
      throw new ValueError(
        `${label}: ${where} is ${kindOf(value)}, where OpenAPI wants ${wanted}; give ${wanted}, which is merged into the operation's.`,
      );
    }
    if (!(key in target)) {
      target[key] = structuredClone(value);
      continue;
    }
    if (isPlainObject(own)) merge(own, value as OpenApiExtra, where, label);
    else if (Array.isArray(own)) target[key] = [...own, ...structuredClone(value as unknown[])];
    else target[key] = value;
  }
}

/** The Operation Object's fields (OpenAPI 3.1) and the kind of value each takes. */
const OPERATION_FIELDS: Record<string, string> = {
  tags: "a list",
  summary: "a string",
  description: "a string",
  externalDocs: "an object",
  parameters: "a list",
  requestBody: "an object",
  responses: "an object",
  callbacks: "an object",
  deprecated: "a boolean",
  security: "a list",
  servers: "a list",
};

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}
