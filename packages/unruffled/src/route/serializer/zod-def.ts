import type { z } from "zod";

/** The parts of a Zod 4 schema definition the serializer compiler reads. */
export interface SchemaDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  mode?: string;
  partial?: boolean;
  options?: z.ZodType[];
  discriminator?: string;
  unionFallback?: boolean;
  innerType?: z.ZodType;
  readonly defaultValue?: unknown;
  values?: unknown[];
  coerce?: boolean;
  checks?: { _zod: { def: { check: string } } }[];
}

/** A schema's definition, read as the compiler needs it. */
export function defOf(schema: z.ZodType): SchemaDef {
  return schema._zod.def as unknown as SchemaDef;
}

/**
 * True when parsing may give another value than it was given (`.trim()`, `.toLowerCase()`,
 * `z.coerce.*`): such a schema cannot be copied as is, so Zod parses it.
 */
export function rewritesValue(def: SchemaDef): boolean {
  return def.coerce === true || (def.checks ?? []).some((check) => check._zod.def.check === "overwrite");
}

/** `z.exactOptional(x)`: absent is allowed, an explicit `undefined` is not. */
export function isExactOptional(schema: z.ZodType): boolean {
  return schema._zod.traits.has("$ZodExactOptional");
}

/** What an object key's schema allows when the key is absent: Zod's `optin`/`optout`. */
export function optionality(schema: z.ZodType): { optin: string | undefined; optout: string | undefined } {
  return { optin: schema._zod.optin, optout: schema._zod.optout };
}

/** The schema a `z.lazy()` stands for: Zod's cached one, so each call gives the same object. */
export function lazyTarget(schema: z.ZodType): z.ZodType {
  return (schema._zod as unknown as { innerType: z.ZodType }).innerType;
}
