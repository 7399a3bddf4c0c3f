// What the framework reads of a Zod schema's definition (`schema._zod.def`) when it walks a schema
// once, at build: one description for every walker (the JSON date reader, the out-of-range number
// check, the shape of a text parameter, what JSON can carry).
import type { z } from "zod";

/** The fields of a schema's definition the walkers read; `S` is the schema type they hold. */
export type SchemaDef<S = z.ZodType> = {
  type: string;
  coerce?: boolean;
  innerType?: S;
  in?: S;
  out?: S;
  shape?: Record<string, S>;
  catchall?: S;
  element?: S;
  items?: S[];
  rest?: S | null;
  valueType?: S;
  options?: S[];
  left?: S;
  right?: S;
  getter?: () => S;
};

/** The definitions whose `innerType` is the schema they wrap, its value unchanged on the wire. */
export const WRAPPERS: ReadonlySet<string> = new Set([
  "optional",
  "nullable",
  "default",
  "prefault",
  "readonly",
  "catch",
  "nonoptional",
]);

/**
 * A schema's definition, as the walkers read it.
 *
 * @example schemaDef(z.string().optional()).type // "optional"
 */
export function schemaDef<S extends z.core.$ZodType>(schema: S): SchemaDef<S> {
  return schema._zod.def as unknown as SchemaDef<S>;
}
