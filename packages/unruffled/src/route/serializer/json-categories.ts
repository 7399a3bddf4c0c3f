import type { z } from "zod";
import { defOf, lazyTarget } from "./zod-def.ts";

/** The kinds of JavaScript value a union tells apart before choosing an option. */
export type ValueKind =
  | "string"
  | "number"
  | "boolean"
  | "bigint"
  | "symbol"
  | "null"
  | "undefined"
  | "array"
  | "object";

const OBJECT_TYPES = new Set(["object", "record", "date", "map", "set", "file", "promise"]);
const SAME_AS_INNER = new Set(["readonly", "nonoptional"]);

/**
 * The kinds of value a schema can accept, or `"any"` when that cannot be told from its type alone
 * (unknown, custom checks, coercion, catch). A union whose options accept disjoint kinds can pick
 * its option from the value's kind, as Zod's first successful option would be.
 *
 * @example kindsOf(z.string().nullable()) // Set { "string", "null" }
 */
export function kindsOf(schema: z.ZodType, resolving: Set<z.ZodType> = new Set()): Set<ValueKind> | "any" {
  const def = defOf(schema);
  if (def.coerce === true) return "any";
  switch (def.type) {
    case "string":
    case "template_literal":
      return new Set(["string"]);
    case "number":
    case "nan":
      return new Set(["number"]);
    case "boolean":
    case "bigint":
    case "symbol":
    case "null":
    case "undefined":
      return new Set([def.type as ValueKind]);
    case "void":
      return new Set(["undefined"]);
    case "never":
      return new Set();
    case "array":
    case "tuple":
      return new Set(["array"]);
    case "literal":
    case "enum":
      return new Set([...(schema._zod.values ?? [])].map(kindOfValue));
    case "optional":
    case "default":
    case "prefault":
      return withKind(kindsOf(def.innerType!, resolving), "undefined");
    case "nullable":
      return withKind(kindsOf(def.innerType!, resolving), "null");
    case "union":
      return unionOfKinds(def.options!.map((option) => kindsOf(option, resolving)));
    case "lazy": {
      if (resolving.has(schema)) return "any";
      resolving.add(schema);
      const kinds = kindsOf(lazyTarget(schema), resolving);
      resolving.delete(schema);
      return kinds;
    }
    default:
      if (OBJECT_TYPES.has(def.type)) return new Set(["object"]);
      if (SAME_AS_INNER.has(def.type)) return kindsOf(def.innerType!, resolving);
      return "any";
  }
}

/** The kind of one literal value. */
export function kindOfValue(value: unknown): ValueKind {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value as ValueKind;
}

function withKind(kinds: Set<ValueKind> | "any", kind: ValueKind): Set<ValueKind> | "any" {
  return kinds === "any" ? "any" : new Set([...kinds, kind]);
}

function unionOfKinds(all: (Set<ValueKind> | "any")[]): Set<ValueKind> | "any" {
  const result = new Set<ValueKind>();
  for (const kinds of all) {
    if (kinds === "any") return "any";
    for (const kind of kinds) result.add(kind);
  }
  return result;
}
