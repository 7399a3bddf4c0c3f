import { ValueError } from "../../errors.ts";

/** JSON that a route merges into its OpenAPI operation: `{ "x-internal": true }`. */
export type OpenApiExtra = { readonly [key: string]: unknown };

/**
 * Refuses, where `path()` (or `webhook()`, `callback()`) is called, an `openapiExtra` the document could not hold: not a plain
 * object, a value JSON has not (a function, undefined, a Date, NaN, a bigint), or an operationId,
 * which the route gives and the document keeps unique.
 */
export function checkOpenApiExtra(where: string, extra: unknown): void {
  if (!isPlainObject(extra)) {
    throw new ValueError(
      `${where}: openapiExtra must be a plain object, merged into the operation, such as { "x-internal": true }.`,
    );
  }
  if ("operationId" in extra) {
    throw new ValueError(
      `${where}: openapiExtra sets operationId, which the route gives (its name or operationId option), unique in the document; give it there.`,
    );
  }
  const refused = notJson(extra, "openapiExtra");
  if (refused !== undefined) {
    throw new ValueError(
      `${where}: ${refused.at} is ${refused.what}, which the JSON document cannot hold; give a string, a number, a boolean, null, a list or a plain object.`,
    );
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Where a value JSON cannot hold is, and what it is; undefined when all of it is JSON. `holding` is
 * the objects on the way down: one met again there holds itself.
 */
function notJson(
  value: unknown,
  at: string,
  holding: readonly object[] = [],
): { at: string; what: string } | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return undefined;
    case "number":
      return Number.isFinite(value) ? undefined : { at, what: `the number ${value}` };
    case "object": {
      if (value === null) return undefined;
      if (holding.includes(value)) return { at, what: "the object that holds it" };
      const inside = [...holding, value];
      if (Array.isArray(value)) {
        for (const [index, item] of value.entries()) {
          const refused = notJson(item, `${at}[${index}]`, inside);
          if (refused !== undefined) return refused;
        }
        return undefined;
      }
      if (!isPlainObject(value)) return { at, what: `a ${value.constructor?.name ?? "non-plain object"}` };
      for (const [key, item] of Object.entries(value)) {
        const where = /^[A-Za-z_$][\w$]*$/.test(key) ? `${at}.${key}` : `${at}[${JSON.stringify(key)}]`;
        const refused = notJson(item, where, inside);
        if (refused !== undefined) return refused;
      }
      return undefined;
    }
    case "undefined":
      return { at, what: "undefined" };
    default:
      return { at, what: `a ${typeof value}` };
  }
}
