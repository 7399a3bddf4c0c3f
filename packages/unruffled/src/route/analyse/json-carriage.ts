import type { z } from "zod";
import { schemaDef, WRAPPERS } from "../wire/schema-def.ts";

/** Which way a model's values go: read from a JSON request body, or written into a JSON answer. */
export type JsonSide = "request" | "answer";

/** A part of a model that JSON cannot carry: where it is, what it is, and what to declare instead. */
export interface NotCarried {
  /** `"n"`, `"items[].tags"`; empty for the model itself. */
  path: string;
  type: string;
  instead: string;
}

// What to declare instead of each type JSON has no value for: read after "declare".
const INSTEAD: Record<string, Record<JsonSide, string>> = {
  bigint: {
    request: "z.int(), or z.coerce.bigint() to read a number or a string as a BigInt",
    answer: "z.int(), or z.string() for an integer beyond 2^53 (JSON.stringify refuses a BigInt)",
  },
  set: { request: "z.array()", answer: "z.array() (a Set is written as {})" },
  map: { request: "z.record()", answer: "z.record() (a Map is written as {})" },
  symbol: { request: "the model without it", answer: "the model without it" },
  function: { request: "the model without it", answer: "the model without it" },
  promise: {
    request: "the model without it",
    answer: "the promised value's schema, and await it in the handler",
  },
};

/**
 * The first part of `model` that JSON cannot carry on `side`: a BigInt (unless coerced from a
 * request's number or string), a Set, a Map, a symbol, a function, a promise. Such a request body
 * would be refused every time (422), and such an answer would fail (a BigInt) or lose the value (a
 * Set or a Map is written as `{}`): the route is refused when it is built instead. A union is
 * refused only when no option can travel; an answer's transform is not followed (its output type
 * is the handler's to know).
 *
 * @example notCarriedByJson(z.object({ n: z.bigint() }), "answer") // { path: "n", type: "bigint", … }
 */
export function notCarriedByJson(model: z.ZodType, side: JsonSide): NotCarried | undefined {
  return visit(model, side, "", new Set());
}

function visit(
  schema: z.ZodType,
  side: JsonSide,
  path: string,
  seen: Set<z.ZodType>,
): NotCarried | undefined {
  if (seen.has(schema)) return undefined;
  seen.add(schema);
  const def = schemaDef(schema);
  const within = (child: z.ZodType | null | undefined, step: string) =>
    child ? visit(child, side, step, seen) : undefined;
  if (def.type === "bigint" && side === "request" && def.coerce) return undefined;
  if (INSTEAD[def.type] !== undefined) return { path, type: def.type, instead: INSTEAD[def.type]![side] };
  if (WRAPPERS.has(def.type)) return within(def.innerType, path);
  switch (def.type) {
    case "object":
      for (const key of Object.keys(def.shape ?? {})) {
        const found = within(def.shape![key], path === "" ? key : `${path}.${key}`);
        if (found) return found;
      }
      return undefined;
    case "array":
      return within(def.element, `${path}[]`);
    case "tuple":
      for (const item of [...(def.items ?? []), ...(def.rest ? [def.rest] : [])]) {
        const found = within(item, `${path}[]`);
        if (found) return found;
      }
      return undefined;
    case "record":
      return within(def.valueType, `${path}[key]`);
    case "intersection":
      return within(def.left, path) ?? within(def.right, path);
    case "union": {
      const found = (def.options ?? []).map((option) => visit(option, side, path, new Set(seen)));
      return found.every((each) => each !== undefined) ? found[0] : undefined;
    }
    case "pipe":
      return within(side === "request" ? def.in : def.out, path);
    case "lazy":
      return within(def.getter?.(), path);
    default:
      return undefined;
  }
}
