// Dates in a JSON body: JSON has no date, so a `z.date()` field travels as its ISO 8601 string (as
// `JSON.stringify` writes a Date, and as the document's `format: date-time` says). Which positions
// of a body hold dates is read from the schema once, when the route is built; a request walks only
// those positions, and a body without dates is not walked at all.
import type { z } from "zod";
import { toDate } from "./coerce.ts";
import { type SchemaDef, schemaDef, WRAPPERS } from "./schema-def.ts";

/** Replaces, in a parsed JSON value, the date-time strings at the schema's date positions by Dates. */
export type DateReader = (value: unknown) => unknown;

/**
 * The reader of a schema's dates, or undefined when the schema holds none (the common body).
 *
 * @example dateReaderOf(z.object({ starts: z.date(), title: z.string() }))!({ starts: "2026-03-01T09:30:00Z", title: "x" })
 */
export function dateReaderOf(schema: z.core.$ZodType): DateReader | undefined {
  return compile(schema, new Map());
}

/** A schema met again while it is compiled (a recursive one): its reader, once known. */
type Pending = { read: DateReader | undefined };

function compile(schema: z.core.$ZodType, compiling: Map<z.core.$ZodType, Pending>): DateReader | undefined {
  const pending = compiling.get(schema);
  if (pending !== undefined) return (value) => (pending.read === undefined ? value : pending.read(value));
  const slot: Pending = { read: undefined };
  compiling.set(schema, slot);
  slot.read = compileOnce(schema, compiling);
  return slot.read;
}

function compileOnce(
  schema: z.core.$ZodType,
  compiling: Map<z.core.$ZodType, Pending>,
): DateReader | undefined {
  const def = schemaDef(schema);
  if (WRAPPERS.has(def.type) && def.innerType !== undefined) return compile(def.innerType, compiling);
  switch (def.type) {
    case "date":
      return toDate;
    case "pipe":
      return def.in === undefined ? undefined : compile(def.in, compiling);
    case "lazy":
      return compile(def.getter!(), compiling);
    case "object":
      return objectReader(def, compiling);
    case "array":
      return listReader(compile(def.element!, compiling));
    case "tuple":
      return tupleReader(
        def.items!.map((item) => compile(item, compiling)),
        def.rest ? compile(def.rest, compiling) : undefined,
      );
    case "record":
      return recordReader(compile(def.valueType!, compiling));
    case "union":
      return allOf(def.options!.map((option) => compile(option, compiling)));
    case "intersection":
      return allOf([compile(def.left!, compiling), compile(def.right!, compiling)]);
    default:
      return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function objectReader(
  def: SchemaDef<z.core.$ZodType>,
  compiling: Map<z.core.$ZodType, Pending>,
): DateReader | undefined {
  const fields: [string, DateReader][] = [];
  for (const [key, field] of Object.entries(def.shape ?? {})) {
    const read = compile(field, compiling);
    if (read !== undefined) fields.push([key, read]);
  }
  const extra = def.catchall === undefined ? undefined : compile(def.catchall, compiling);
  if (fields.length === 0 && extra === undefined) return undefined;
  const declared = new Set(Object.keys(def.shape ?? {}));
  return (value) => {
    if (!isObject(value)) return value;
    for (const [key, read] of fields) if (Object.hasOwn(value, key)) value[key] = read(value[key]);
    if (extra !== undefined) {
      for (const key of Object.keys(value)) if (!declared.has(key)) setOwn(value, key, extra(value[key]));
    }
    return value;
  };
}

/** `value[key] = item`, without the `__proto__` setter that a key of that name would call. */
function setOwn(value: Record<string, unknown>, key: string, item: unknown): void {
  if (value[key] === item) return;
  Object.defineProperty(value, key, { value: item, writable: true, enumerable: true, configurable: true });
}

function listReader(read: DateReader | undefined): DateReader | undefined {
  if (read === undefined) return undefined;
  return (value) => {
    if (Array.isArray(value))
      for (let index = 0; index < value.length; index++) value[index] = read(value[index]);
    return value;
  };
}

function tupleReader(
  items: readonly (DateReader | undefined)[],
  rest: DateReader | undefined,
): DateReader | undefined {
  if (rest === undefined && items.every((item) => item === undefined)) return undefined;
  return (value) => {
    if (!Array.isArray(value)) return value;
    for (let index = 0; index < value.length; index++) {
      const read = index < items.length ? items[index] : rest;
      if (read !== undefined) value[index] = read(value[index]);
    }
    return value;
  };
}

function recordReader(read: DateReader | undefined): DateReader | undefined {
  if (read === undefined) return undefined;
  return (value) => {
    if (isObject(value)) for (const key of Object.keys(value)) setOwn(value, key, read(value[key]));
    return value;
  };
}

/** Every reader in turn: the options of a union, the sides of an intersection. */
function allOf(readers: readonly (DateReader | undefined)[]): DateReader | undefined {
  const present = readers.filter((read): read is DateReader => read !== undefined);
  if (present.length <= 1) return present[0];
  return (value) => {
    let result = value;
    for (const read of present) result = read(result);
    return result;
  };
}
