// fast-check generators of the values a Zod model accepts, read from the model itself, with
// undeclared keys in every object the model strips and keys in any order: what a handler hands to a
// response model.
import fc from "fast-check";
import { z } from "zod";

/** The key and value added to every object whose model leaves unknown keys out. */
export const UNDECLARED_KEY = "password_hash";
export const UNDECLARED_VALUE = "$argon2id$v=19$m=65536,t=3,p=4$undeclared";

type Schema = z.core.$ZodType;

/** A schema's bounds and format, read from its checks (lengths of text and lists, numbers' ranges). */
interface Bag {
  minimum?: number;
  maximum?: number;
  format?: string;
}

interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  length?: number;
  value?: number;
  inclusive?: boolean;
}

// Deeper than this, recursive models get empty lists and records.
const MAX_DEPTH = 3;
const MAX_ITEMS = 4;

/**
 * Values `model` accepts (every one passes `model.safeParse`), built from its definition: objects
 * with each optional key present or not, {@link UNDECLARED_KEY} (and at times other keys) added where
 * the model would strip them, and their keys in any order; lists, records, union options, nulls,
 * ISO dates, emails, and text with non-ASCII and control characters.
 *
 * @example fc.assert(fc.property(modelValues(Student), (value) => Student.safeParse(value).success))
 */
export function modelValues(model: Schema): fc.Arbitrary<unknown> {
  return valuesOf(model, 0).filter((value) => z.safeParse(model, value).success);
}

function valuesOf(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  const def = schema._zod.def;
  const bag = boundsOf(schema);
  switch (def.type) {
    case "string":
      return stringsFor(schema, bag);
    case "number":
      return numbersFor(bag);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "undefined":
      return fc.constant(undefined);
    case "literal":
    case "enum":
      return fc.constantFrom(...schema._zod.values!);
    case "date":
      return fc.date({ noInvalidDate: true });
    case "any":
    case "unknown":
      return fc.jsonValue({ maxDepth: 2 });
    case "object":
      return objectsFor(def as z.core.$ZodObjectDef, depth);
    case "array": {
      const { minLength, maxLength } = lengths(bag, depth);
      if (maxLength === 0) return fc.constant([]);
      return fc.array(valuesOf((def as z.core.$ZodArrayDef).element, depth + 1), { minLength, maxLength });
    }
    case "tuple": {
      const { items, rest } = def as z.core.$ZodTupleDef;
      return fc
        .tuple(
          fc.tuple(...items.map((item) => valuesOf(item, depth + 1))),
          rest ? fc.array(valuesOf(rest, depth + 1), lengths({}, depth)) : fc.constant([]),
        )
        .map(([fixed, more]) => [...fixed, ...more]);
    }
    case "record":
      return recordsFor(def as z.core.$ZodRecordDef, depth);
    case "union":
      return fc.oneof(...(def as z.core.$ZodUnionDef).options.map((option) => valuesOf(option, depth)));
    case "optional":
    case "default":
    case "prefault":
      return fc.option(valuesOf(innerOf(def), depth), { nil: undefined, freq: 4 });
    case "nullable":
      return fc.option(valuesOf(innerOf(def), depth), { nil: null, freq: 4 });
    case "nonoptional":
      return valuesOf(innerOf(def), depth).filter((value) => value !== undefined);
    case "readonly":
    case "catch":
      return valuesOf(innerOf(def), depth);
    case "pipe":
      return valuesOf((def as z.core.$ZodPipeDef).in, depth);
    case "lazy":
      return fc.constant(null).chain(() => valuesOf(lazyTarget(schema), depth + 1));
    default:
      throw new Error(`modelValues: no values for a schema of type ${def.type}`);
  }
}

function stringsFor(schema: Schema, bag: Bag): fc.Arbitrary<string> {
  const accepts = (text: string) => z.safeParse(schema, text).success;
  switch (bag.format) {
    case "datetime":
      return fc
        .date({
          min: new Date("1970-01-01T00:00:00Z"),
          max: new Date("2199-12-31T23:59:59Z"),
          noInvalidDate: true,
        })
        .map((date) => date.toISOString());
    case "date":
      return fc
        .date({
          min: new Date("1970-01-01T00:00:00Z"),
          max: new Date("2199-12-31T00:00:00Z"),
          noInvalidDate: true,
        })
        .map((date) => date.toISOString().slice(0, 10));
    case "email":
      // fast-check's RFC addresses are mostly refused by Zod's stricter pattern.
      return fc
        .stringMatching(/^[a-z0-9][a-z0-9._+-]{0,10}[a-z0-9]@[a-z0-9]{1,10}\.(edu|org|example)$/)
        .filter(accepts);
    case "uuid":
      return fc.uuid().filter(accepts);
    default: {
      const maxLength = Math.min(Number(bag.maximum ?? 40), 40);
      const minLength = Math.min(Number(bag.minimum ?? 0), maxLength);
      return fc
        .oneof(
          fc.string({ minLength, maxLength }),
          fc.string({ unit: "grapheme", minLength, maxLength }),
          fc.string({ unit: "binary", minLength, maxLength }),
          fc.constantFrom("Zoë", "Łódź", "東京", "😀 emoji", "line\nbreak", 'quote " and \\', "\u2028\u2029"),
        )
        .filter(accepts);
    }
  }
}

function numbersFor(bag: Bag): fc.Arbitrary<number> {
  const min = bag.minimum === undefined ? undefined : Number(bag.minimum);
  const max = bag.maximum === undefined ? undefined : Number(bag.maximum);
  if (bag.format === "safeint" || bag.format === "int32") {
    return fc.integer({
      min: Math.max(min ?? -(2 ** 31), -(2 ** 31)),
      max: Math.min(max ?? 2 ** 31 - 1, 2 ** 31 - 1),
    });
  }
  return fc.double({
    noNaN: true,
    noDefaultInfinity: true,
    ...(min === undefined ? {} : { min }),
    ...(max === undefined ? {} : { max }),
  });
}

function lengths(bag: Bag, depth: number): { minLength: number; maxLength: number } {
  const minLength = Number(bag.minimum ?? 0);
  const maxLength =
    depth >= MAX_DEPTH
      ? minLength
      : Math.max(minLength, Math.min(Number(bag.maximum ?? MAX_ITEMS), MAX_ITEMS));
  return { minLength, maxLength };
}

function objectsFor(def: z.core.$ZodObjectDef, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const shape = def.shape!;
  const keys = Object.keys(shape);
  const values: Record<string, fc.Arbitrary<unknown>> = {};
  for (const key of keys) values[key] = valuesOf(shape[key]!, depth + 1);
  const requiredKeys = keys.filter((key) => shape[key]!._zod.optin === undefined);
  const declared = fc.record(values, { requiredKeys });
  const catchall = def.catchall;
  const mode = catchall === undefined ? "strip" : catchall._zod.def.type;
  if (mode === "never") return declared.chain(shuffled);
  // Other keys than the declared ones: a key the model declares would be held to its schema.
  const otherKey = fc.string().filter((key) => !Object.hasOwn(shape, key));
  // Where the model strips unknown keys, a secret it does not declare, and at times a few more;
  // where it keeps them, any value its catchall accepts.
  const extra =
    catchall === undefined
      ? fc
          .dictionary(otherKey, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 })
          .map((more) => ({ ...more, [UNDECLARED_KEY]: UNDECLARED_VALUE }))
      : fc.dictionary(
          otherKey,
          mode === "unknown" || mode === "any" ? fc.jsonValue() : valuesOf(catchall, depth + 1),
          { maxKeys: depth >= MAX_DEPTH ? 0 : MAX_ITEMS },
        );
  return fc.tuple(extra, declared).chain(([undeclared, known]) => shuffled({ ...undeclared, ...known }));
}

/** The same keys and values in a random order: Zod's output follows the model, not the input. */
function shuffled(value: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const entries = Object.entries(value);
  if (entries.length < 2) return fc.constant(value);
  return fc
    .shuffledSubarray(entries, { minLength: entries.length, maxLength: entries.length })
    .map((order) => Object.fromEntries(order));
}

function recordsFor(def: z.core.$ZodRecordDef, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const keyValues = def.keyType._zod.values;
  const value = valuesOf(def.valueType, depth + 1);
  if (keyValues !== undefined) {
    const keys = [...keyValues].map(String);
    const entries: Record<string, fc.Arbitrary<unknown>> = {};
    for (const key of keys) entries[key] = value;
    const partial = (def as { partial?: boolean }).partial === true;
    return fc.record(entries, { requiredKeys: partial ? [] : keys }).chain(shuffled);
  }
  if (depth >= MAX_DEPTH) return fc.constant({});
  const accepts = (key: string) => z.safeParse(def.keyType, key).success;
  return fc.dictionary(fc.string({ unit: "grapheme", maxLength: 8 }).filter(accepts), value, {
    maxKeys: MAX_ITEMS,
  });
}

function boundsOf(schema: Schema): Bag {
  const def = schema._zod.def as unknown as { format?: string; checks?: { _zod: { def: CheckDef } }[] };
  const bag: Bag = def.format === undefined ? {} : { format: def.format };
  for (const check of def.checks ?? []) {
    const { check: kind, minimum, maximum, length, value, inclusive } = check._zod.def;
    if (kind === "min_length") bag.minimum = minimum;
    else if (kind === "max_length") bag.maximum = maximum;
    else if (kind === "length_equals") bag.minimum = bag.maximum = length;
    // Exclusive bounds are approached from inside; the final filter drops what lands on them.
    else if (kind === "greater_than") bag.minimum = inclusive ? value : Number(value) + 1;
    else if (kind === "less_than") bag.maximum = inclusive ? value : Number(value) - 1;
  }
  return bag;
}

/** The schema inside a wrapper (optional, nullable, default, readonly…). */
function innerOf(def: z.core.$ZodTypeDef): Schema {
  return (def as z.core.$ZodOptionalDef).innerType;
}

function lazyTarget(schema: Schema): Schema {
  return (schema._zod as unknown as { innerType: Schema }).innerType;
}
