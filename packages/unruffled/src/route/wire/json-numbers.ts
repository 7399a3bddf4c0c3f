// Numbers in a JSON body past a double's range: `JSON.parse` reads `1e400` as Infinity, which a
// number schema refuses but a schema of any value (`z.unknown()`, `z.any()`, a record of those, a
// loose model's extra keys) passes on, and which an answer then writes as `null`. Which parameters
// can pass one on is read from the schema once, when the route is built; a request walks only their
// validated values.
import type { z } from "zod";
import { schemaDef, WRAPPERS } from "./schema-def.ts";

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
  const def = schemaDef(schema);
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
      return (def.out === undefined ? undefined : schemaDef(def.out).type) === "transform"
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
 * each with its number; empty for the common value. Walked with a stack of its own, not the call
 * stack: `json_depth` has no ceiling, and a body may nest as deep as an app allows.
 *
 * @example infiniteNumbers({ a: [1, Infinity] }) // [{ path: ["a", 1], value: Infinity }]
 */
export function infiniteNumbers(value: unknown): Found {
  const walk = new Walk();
  walk.enter(value);
  const { frames, path } = walk;
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    if (frame.next === frame.keys.length) {
      frames.pop();
      // Every frame but the first was entered under a key of the one below it.
      if (frames.length > 0) path.pop();
      continue;
    }
    const key = frame.keys[frame.next++]!;
    path.push(key);
    if (!walk.enter((frame.value as Record<string | number, unknown>)[key])) path.pop();
  }
  return walk.found;
}

// An object being walked: its keys (an array's indexes), and which one comes next.
type Frame = { value: object; keys: readonly (string | number)[]; next: number };

class Walk {
  readonly found: Found = [];
  readonly frames: Frame[] = [];
  // One path, pushed and popped as the walk goes: copied only where a number is found.
  readonly path: (string | number)[] = [];
  // A transform's output may share or loop: each object is walked once.
  readonly #seen = new Set<object>();

  /** Looks at a value at the current path: true when it is an object whose keys are to be walked. */
  enter(value: unknown): boolean {
    if (typeof value === "number") {
      if (value === Number.POSITIVE_INFINITY || value === Number.NEGATIVE_INFINITY) {
        this.found.push({ path: this.path.slice(), value });
      }
      return false;
    }
    if (typeof value !== "object" || value === null || this.#seen.has(value)) return false;
    this.#seen.add(value);
    if (Array.isArray(value)) {
      this.frames.push({ value, keys: indexes(value.length), next: 0 });
      return true;
    }
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return false;
    this.frames.push({ value, keys: Object.keys(value), next: 0 });
    return true;
  }
}

function indexes(length: number): number[] {
  const keys = new Array<number>(length);
  for (let index = 0; index < length; index++) keys[index] = index;
  return keys;
}
