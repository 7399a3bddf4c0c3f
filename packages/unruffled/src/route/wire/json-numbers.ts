// Numbers in a JSON body past a double's range: `JSON.parse` reads `1e400` as Infinity, which a
// number schema refuses but a schema of any value (`z.unknown()`, `z.any()`, a record of those, a
// loose model's extra keys) passes on, and which an answer then writes as `null`. Which parameters
// can pass one on is read from the schema once, when the route is built; a request walks only their
// validated values.
import type { z } from "zod";

type Def = {
  type: string;
  innerType?: z.core.$ZodType;
  in?: z.core.$ZodType;
  out?: z.core.$ZodType;
  shape?: Record<string, z.core.$ZodType>;
  catchall?: z.core.$ZodType;
  element?: z.core.$ZodType;
  items?: z.core.$ZodType[];
  rest?: z.core.$ZodType | null;
  valueType?: z.core.$ZodType;
  options?: z.core.$ZodType[];
  left?: z.core.$ZodType;
  right?: z.core.$ZodType;
  getter?: () => z.core.$ZodType;
};

const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "readonly", "catch", "nonoptional"]);
// Types that take a value without looking at it: a number in it is never checked.
const ANY_VALUE = new Set(["unknown", "any", "custom"]);

/**
 * Whether a JSON value this schema validates may hold a number no number schema checked, so an
 * infinite one (`1e400`) would reach the endpoint.
 *
 * @example passesUncheckedNumbers(z.object({ tags: z.record(z.string(), z.unknown()) })) // true
 */
export function passesUncheckedNumbers(schema: z.core.$ZodType): boolean {
  return visit(schema, new Set());
}

function visit(schema: z.core.$ZodType | null | undefined, seen: Set<z.core.$ZodType>): boolean {
  if (schema === null || schema === undefined || seen.has(schema)) return false;
  seen.add(schema);
  const def = schema._zod.def as unknown as Def;
  if (ANY_VALUE.has(def.type)) return true;
  if (WRAPPERS.has(def.type)) return visit(def.innerType, seen);
  switch (def.type) {
    case "object":
      return visit(def.catchall, seen) || Object.values(def.shape ?? {}).some((field) => visit(field, seen));
    case "array":
      return visit(def.element, seen);
    case "tuple":
      return (def.items ?? []).some((item) => visit(item, seen)) || visit(def.rest, seen);
    case "record":
      return visit(def.valueType, seen);
    case "union":
      return (def.options ?? []).some((option) => visit(option, seen));
    case "intersection":
      return visit(def.left, seen) || visit(def.right, seen);
    case "lazy":
      return visit(def.getter?.(), seen);
    // A transform's output is the handler's own; what it was handed is what the body held.
    case "pipe":
      return (def.out?._zod.def as Def | undefined)?.type === "transform"
        ? visit(def.in, seen)
        : visit(def.out, seen);
    case "transform":
      return true;
    default:
      return false;
  }
}

type Found = { path: (string | number)[]; value: number }[];

const DOUBLE_RANGE = "Number out of range: a double holds at most ±1.7976931348623157e+308";

/**
 * The issue of an infinite number at `path`, as a number schema's range refuses it: the same words for
 * a request body and a WebSocket message.
 *
 * @example outOfRangeIssue(["a"], Infinity).message // "Number out of range: a double holds at most ±1.7976931348623157e+308"
 */
export function outOfRangeIssue(path: (string | number)[], value: number): z.core.$ZodIssue {
  const positive = value > 0;
  return {
    code: positive ? "too_big" : "too_small",
    origin: "number",
    ...(positive ? { maximum: Number.MAX_VALUE } : { minimum: -Number.MAX_VALUE }),
    inclusive: true,
    path,
    input: value,
    message: DOUBLE_RANGE,
  } as z.core.$ZodIssue;
}

/**
 * The paths of the infinite numbers in a value parsed from JSON (plain objects and arrays only),
 * each with its number; empty for the common value.
 *
 * @example infiniteNumbers({ a: [1, Infinity] }) // [{ path: ["a", 1], value: Infinity }]
 */
export function infiniteNumbers(value: unknown): Found {
  const found: Found = [];
  walk(value, [], found, new Set());
  return found;
}

// One path, pushed and popped as the walk goes: copied only where a number is found.
function walk(value: unknown, path: (string | number)[], found: Found, seen: Set<object>): void {
  if (typeof value === "number") {
    if (value === Number.POSITIVE_INFINITY || value === Number.NEGATIVE_INFINITY) {
      found.push({ path: path.slice(), value });
    }
    return;
  }
  if (typeof value !== "object" || value === null || seen.has(value)) return;
  // A transform's output may share or loop: each object is walked once.
  seen.add(value);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      path.push(index);
      walk(value[index], path, found, seen);
      path.pop();
    }
    return;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return;
  for (const key of Object.keys(value)) {
    path.push(key);
    walk((value as Record<string, unknown>)[key], path, found, seen);
    path.pop();
  }
}
