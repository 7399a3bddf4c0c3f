import type { z } from "zod";
import type { Omissions } from "../declare/response-spec.ts";
import { defOf } from "./zod-def.ts";

/**
 * The expression of an object field's value with the omissions applied: `undefined` (which
 * `JSON.stringify` leaves out) where the value is null, or equals the field's default. The object
 * keeps its shape; a field that cannot be null, or has no default, costs nothing.
 *
 * @example omitted(z.string().nullish(), "f0(v.a)", { none: true, defaults: false }, program, ".a") // "(u = f0(v.a), u === null ? undefined : u)"
 */
export function omitted(
  field: z.ZodType,
  value: string,
  omissions: Omissions,
  program: { constant(value: unknown): string; requiredNullable: string[] },
  path: string,
): string {
  let result = value;
  if (omissions.none && acceptsNull(field)) {
    // A required field that may be null cannot be left out: the caller refuses the model.
    if (field._zod.optin === undefined) program.requiredNullable.push(path);
    result = `(u = ${result}, u === null ? undefined : u)`;
  }
  if (omissions.defaults) {
    const def = defOf(field);
    if (def.type === "default") {
      const fallback = def.defaultValue;
      result =
        fallback !== null && typeof fallback === "object"
          ? `(u = ${result}, JSON.stringify(u) === ${program.constant(JSON.stringify(fallback))} ? undefined : u)`
          : `(u = ${result}, u === ${program.constant(fallback)} ? undefined : u)`;
    }
  }
  return result;
}

function acceptsNull(field: z.ZodType): boolean {
  try {
    return field.safeParse(null).success;
  } catch {
    // A transform that throws on null: null is not a value this field sends.
    return false;
  }
}
