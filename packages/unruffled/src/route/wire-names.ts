import { ValueError } from "../errors.ts";
import type { ParamDescription, WireField } from "./description.ts";

/**
 * Rule 15: within one source, no two parameters (or model fields) read the same name. The same name
 * in two sources (a query `id` and a path `id`) is allowed.
 *
 * @example checkWireNames(params, label) // ValueError: parameters "a" and "b" both read the query name "id"
 */
export function checkWireNames(params: readonly ParamDescription[], label: string): void {
  const seen = new Map<string, { param: ParamDescription; field: WireField }>();
  for (const param of params) {
    for (const field of param.fields) {
      const key = `${param.location}\u0000${field.wireName}`;
      const other = seen.get(key);
      if (other) {
        throw new ValueError(
          `${label}: parameters ${named(other.param, other.field)} and ${named(param, field)} both read the ${param.location} name "${field.wireName}". Rename one of them or give it an alias.`,
        );
      }
      seen.set(key, { param, field });
    }
  }
}

function named(param: ParamDescription, field: WireField): string {
  return field.key === null ? `"${param.name}"` : `"${param.name}" (field "${field.key}")`;
}
