import { z } from "zod";
import { type Coercer, coerceTowards, toBoolean, toDate, toNumber } from "../wire/coerce.ts";
import { type SchemaDef, schemaDef, WRAPPERS } from "../wire/schema-def.ts";

/**
 * How a Zod schema is read from a request: one value, a list of values, or a model whose fields are
 * read one by one. Worked out once, when a route is built.
 */
export type SchemaShape =
  | { kind: "scalar"; coerce: Coercer | undefined; whole?: true }
  | { kind: "list"; coerce: Coercer | undefined }
  | { kind: "model"; fields: ModelField[] }
  | { kind: "unsupported"; typeName: string };

export interface ModelField {
  key: string;
  schema: z.ZodType;
  shape: SchemaShape;
}

export function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === "object" && value !== null && "_zod" in value;
}

function def(schema: z.ZodType): SchemaDef {
  return schemaDef(schema);
}

/** The schema under optional/nullable/default/… wrappers, and the input side of a pipe. */
export function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const d = def(current);
    if (WRAPPERS.has(d.type) && d.innerType) current = d.innerType;
    else if (d.type === "pipe" && d.in) current = d.in;
    else return current;
  }
}

export function typeName(schema: z.ZodType): string {
  return def(unwrap(schema)).type;
}

/** True for a schema that carries its own default (`z.int().default(1)`). */
export function hasOwnDefault(schema: z.ZodType): boolean {
  let current = schema;
  for (;;) {
    const d = def(current);
    if (d.type === "default" || d.type === "prefault") return true;
    if (WRAPPERS.has(d.type) && d.innerType) current = d.innerType;
    else return false;
  }
}

/** True for a model that refuses keys it does not declare (`z.strictObject`, `.strict()`). */
export function isStrictObject(schema: z.ZodType): boolean {
  const base = def(unwrap(schema));
  return base.type === "object" && base.catchall !== undefined && def(base.catchall).type === "never";
}

/** True when the schema accepts a missing value (optional or defaulted). */
export function acceptsMissing(schema: z.ZodType): boolean {
  return schema._zod.optin !== undefined;
}

/**
 * Classifies a schema. `fromStrings` is true for sources whose values arrive as strings (everything
 * but JSON): their scalars get a coercer, and models may only hold scalars and lists.
 */
export function shapeOf(schema: z.ZodType, fromStrings: boolean): SchemaShape {
  const base = unwrap(schema);
  const type = def(base).type;
  if (type === "array") {
    const element = def(base).element!;
    if (!fromStrings) return { kind: "list", coerce: undefined };
    const elementShape = scalarShape(element);
    return elementShape
      ? { kind: "list", coerce: elementShape.coerce }
      : { kind: "unsupported", typeName: `array of ${textTypeName(element)}` };
  }
  if (type === "object") {
    const shape = (base as z.ZodObject).shape as Record<string, z.ZodType>;
    const fields: ModelField[] = [];
    for (const key of Object.keys(shape)) {
      const fieldSchema = shape[key]!;
      const fieldShape = fromStrings
        ? shapeOf(fieldSchema, true)
        : ({ kind: "scalar", coerce: undefined } as const);
      if (fieldShape.kind === "model" || fieldShape.kind === "unsupported") {
        return {
          kind: "unsupported",
          typeName: `object with a field "${key}" of type ${textTypeName(fieldSchema)}`,
        };
      }
      fields.push({ key, schema: fieldSchema, shape: fieldShape });
    }
    return { kind: "model", fields };
  }
  if (!fromStrings) return jsonValueShape(base, type);
  if (type === "union" && def(base).options!.some((option) => typeName(option) === "object")) {
    return { kind: "unsupported", typeName: "union of models" };
  }
  return scalarShape(base) ?? { kind: "unsupported", typeName: textTypeName(base) };
}

/**
 * How a refusal names a type text cannot carry: a literal (or a union of literals) by its values,
 * since `literal` alone is supported (`literal null`, `union of literal "a" | literal null`).
 */
function textTypeName(schema: z.ZodType): string {
  const base = unwrap(schema);
  const d = def(base) as SchemaDef & { values?: unknown[] };
  if (d.type === "literal") return `literal ${d.values!.map(literalText).join(" | ")}`;
  if (
    d.type === "union" &&
    d.options!.some((option) => literalValues(option) !== undefined || typeName(option) === "null")
  ) {
    return `union of ${d.options!.map(textTypeName).join(" | ")}`;
  }
  return d.type;
}

/**
 * True for a schema whose only value is null (`z.null()`, `z.literal(null)`, a union of those): a
 * value text never carries, refused for a text parameter with what to declare instead.
 *
 * @example carriesOnlyNull(z.union([z.null()])) // true; z.string().nullable() → false
 */
export function carriesOnlyNull(schema: z.ZodType): boolean {
  const base = unwrap(schema);
  const d = def(base);
  if (d.type === "null") return true;
  if (d.type === "union") return d.options!.every(carriesOnlyNull);
  const values = d.type === "literal" ? literalValues(base)! : undefined;
  return values !== undefined && values.every((value) => value === null);
}

/**
 * A text parameter's union with null (`z.union([z.string(), z.null()])`, or with `z.literal(null)`,
 * the same value) as the `.nullable()` it means, so that the spellings read, refuse and document
 * alike (text never carries the null; a default may): alone, under its wrappers (`.optional()`,
 * `.default(null)`), or as a field of a model read from text. Other schemas, a union with checks or
 * metadata of its own, and a schema with an id (its document names it) come back as they are; a
 * rebuilt wrapper or model keeps its metadata (an alias, a description), refinements and strictness.
 *
 * @example asNullable(z.union([z.int(), z.null()])) // z.int().nullable()
 */
export function asNullable(schema: z.ZodType): z.ZodType {
  const d = def(schema) as SchemaDef & { checks?: unknown[] };
  const meta = z.globalRegistry.get(schema);
  if (meta?.id !== undefined) return schema;
  if (WRAPPERS.has(d.type) && d.innerType !== undefined) {
    const inner = asNullable(d.innerType);
    return inner === d.innerType ? schema : withDef(schema, { innerType: inner });
  }
  if (d.type === "object") return withNullableFields(schema, d.shape!);
  if (d.type !== "union" || (d.checks?.length ?? 0) > 0 || meta !== undefined) return schema;
  // z.literal(null) is the same value as z.null(): either option is the null.
  const others = d.options!.filter((option) => !carriesOnlyNull(option));
  if (others.length === d.options!.length || others.length === 0) return schema;
  return (others.length === 1 ? others[0]! : z.union(others as [z.ZodType, z.ZodType])).nullable();
}

/** A model whose union-with-null fields are `.nullable()`, or the model itself when it has none. */
function withNullableFields(model: z.ZodType, shape: Record<string, z.ZodType>): z.ZodType {
  // The shape's own property descriptors: a getter (a recursive field) stays a getter.
  const descriptors = Object.getOwnPropertyDescriptors(shape);
  let changed = false;
  for (const [key, descriptor] of Object.entries(descriptors)) {
    if (!("value" in descriptor)) continue;
    const field = asNullable(descriptor.value as z.ZodType);
    if (field === descriptor.value) continue;
    descriptors[key] = { ...descriptor, value: field };
    changed = true;
  }
  return changed ? withDef(model, { shape: Object.defineProperties({}, descriptors) }) : model;
}

/**
 * A copy of `schema` whose definition has `changes`; every other part of the definition is kept as
 * it is, getters included (a default made by a function is made anew for each value), and so is its
 * metadata (an alias, a description).
 */
function withDef(schema: z.ZodType, changes: Partial<SchemaDef>): z.ZodType {
  const descriptors = Object.getOwnPropertyDescriptors(schema._zod.def);
  for (const [key, value] of Object.entries(changes)) {
    descriptors[key] = { value, enumerable: true, configurable: true, writable: true };
  }
  const copy = schema.clone(Object.defineProperties({}, descriptors) as typeof schema._zod.def);
  const meta = z.globalRegistry.get(schema);
  if (meta !== undefined) z.globalRegistry.add(copy, meta);
  return copy;
}

function literalText(value: unknown): string {
  if (typeof value === "bigint") return `${value}n`;
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/** The values of a literal or enum, undefined for another type. */
function literalValues(schema: z.ZodType): readonly unknown[] | undefined {
  const d = unwrap(schema)._zod.def as unknown as {
    type: string;
    entries?: Record<string, unknown>;
    values?: unknown[];
  };
  if (d.type === "enum") return Object.values(d.entries!);
  return d.type === "literal" ? d.values : undefined;
}

/** True for a value text carries: a string, or a number or boolean coerced from one. */
function carriedByText(value: unknown): boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

// Values JSON carries that a JSON parameter reads from its own key, as it reads a string.
const KEYED_JSON_VALUES = new Set([
  "string",
  "number",
  "boolean",
  "date",
  "enum",
  "literal",
  "null",
  "tuple",
  "template_literal",
]);
// Values that may be a JSON object of no fixed fields: read from the whole body, as FastAPI reads a
// body of `Union[Cat, Dog]`, `Dict[str, float]` or `Any`.
// By type, how messages name such a value (a union is one when one of its options is).
const OBJECT_LIKE: Readonly<Record<string, string>> = {
  object: "a model",
  record: "a record",
  intersection: "an intersection",
  lazy: "a recursive schema",
  unknown: "z.unknown()",
  any: "z.any()",
};

/**
 * A JSON parameter's value that is no model and no list: one the parameter reads from its own key
 * (a string, a tuple, a union of those), or one that may be an object with no fixed fields (a union
 * of models, a record, an intersection, a recursive schema, any value), which is the whole body.
 */
function jsonValueShape(base: z.ZodType, type: string): SchemaShape {
  if (mayBeObject(base)) return { kind: "scalar", coerce: undefined, whole: true };
  if (type === "union" || KEYED_JSON_VALUES.has(type)) return { kind: "scalar", coerce: undefined };
  return { kind: "unsupported", typeName: type };
}

function mayBeObject(schema: z.ZodType): boolean {
  const base = unwrap(schema);
  const type = def(base).type;
  return Object.hasOwn(OBJECT_LIKE, type) || (type === "union" && def(base).options!.some(mayBeObject));
}

/**
 * How messages name a JSON value that is the whole body: `a union of models`, `a record`, …
 *
 * @example wholeValueName(z.record(z.string(), z.int())) // "a record"
 */
export function wholeValueName(schema: z.ZodType): string {
  const type = typeName(schema);
  return type === "union" ? "a union of models" : (OBJECT_LIKE[type] ?? type);
}

/** True for a value that may be any JSON (`z.unknown()`, `z.any()`): never taken for a body unmarked. */
export function isAnyValue(schema: z.ZodType): boolean {
  const type = typeName(schema);
  return type === "unknown" || type === "any";
}

function scalarShape(schema: z.ZodType): { kind: "scalar"; coerce: Coercer | undefined } | undefined {
  const base = unwrap(schema);
  const d = base._zod.def as unknown as { type: string; options?: z.ZodType[] };
  switch (d.type) {
    case "string":
      return { kind: "scalar", coerce: undefined };
    case "number":
      return { kind: "scalar", coerce: toNumber };
    case "boolean":
      return { kind: "scalar", coerce: toBoolean };
    case "date":
      return { kind: "scalar", coerce: toDate };
    // A literal null, undefined or big integer is never in a text value: every request would get a 422.
    case "enum":
    case "literal": {
      const values = literalValues(base)!;
      return values.every(carriedByText) ? { kind: "scalar", coerce: coercerForValues(values) } : undefined;
    }
    case "union": {
      const values: unknown[] = [];
      for (const option of d.options!) {
        // A null option (z.null(), z.literal(null)) is `.nullable()` written as a union: text never
        // carries it; a default may.
        if (carriesOnlyNull(option)) continue;
        const optionType = typeName(option);
        if (optionType === "number") values.push(0);
        else if (optionType === "boolean") values.push(true);
        else if (optionType === "string") values.push("");
        else if (optionType === "enum" || optionType === "literal") values.push(...literalValues(option)!);
        else return undefined;
      }
      return values.length > 0 && values.every(carriedByText)
        ? { kind: "scalar", coerce: coercerForValues(values) }
        : undefined;
    }
    default:
      return undefined;
  }
}

function coercerForValues(values: readonly unknown[]): Coercer | undefined {
  const strings = new Set(values.filter((value): value is string => typeof value === "string"));
  const number = values.some((value) => typeof value === "number");
  const boolean = values.some((value) => typeof value === "boolean");
  if (!number && !boolean) return undefined;
  if (strings.size === 0 && !boolean) return toNumber;
  if (strings.size === 0 && !number) return toBoolean;
  return coerceTowards(strings, number, boolean);
}
