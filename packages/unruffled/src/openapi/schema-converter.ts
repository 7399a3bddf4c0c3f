import { z } from "zod";
import { ValueError } from "../errors.ts";
import { UploadFile } from "../file/upload-file.ts";
import { isDeepStrictEqual } from "../node-builtins.ts";
import type { JsonSchema } from "./types.ts";

/** Parameters and request bodies are documented as the client sends them, responses as they leave. */
export type SchemaIo = "input" | "output";

export const COMPONENT_REF_PREFIX = "#/components/schemas/";

// The name an unnamed recursive schema has within one conversion, before its document name.
const UNNAMED = "\u0000unnamed";

/** Keys the framework reads from `.meta()` that mean nothing to a JSON Schema reader. */
const FRAMEWORK_META_KEYS = ["alias"] as const;

/**
 * Names for recursive schemas that have no `.meta({ id })`, unique across one document: one name
 * for each shape, so that a schema used by several endpoints, or by a request and a response, is
 * one component, not one per use.
 */
export class AnonymousNames {
  private count = 0;
  private readonly byShape = new Map<string, string>();

  /** The name of a component whose body (with its references to itself made alike) is `shape`. */
  nameFor(shape: string): string {
    let name = this.byShape.get(shape);
    if (name === undefined) {
      name = this.next();
      this.byShape.set(shape, name);
    }
    return name;
  }

  /** A name no other component has. */
  next(): string {
    this.count += 1;
    return `RecursiveSchema${this.count}`;
  }
}

/**
 * Converts Zod schemas to JSON Schema 2020-12 for one side (`input` or `output`) of a document.
 * Every schema named with `.meta({ id: "Name" })` becomes one entry of `components`, and every
 * reference points to `#/components/schemas/Name`.
 *
 * @example
 * const schemas = new SchemaConverter("input", new AnonymousNames());
 * schemas.convert(BindRequest); // { $ref: "#/components/schemas/BindRequest" }
 * schemas.components.get("BindRequest"); // { type: "object", properties: { … }, required: [ … ] }
 */
export class SchemaConverter {
  readonly io: SchemaIo;
  /** The named models met so far, by component name. */
  components = new Map<string, JsonSchema>();
  /** The Zod schema each named model was first met as, by component name. */
  readonly sources = new Map<string, z.core.$ZodType>();
  /** Every schema handed out, so that references can be renamed in place afterwards. */
  private readonly emitted: JsonSchema[] = [];
  private readonly anonymous: AnonymousNames;

  constructor(io: SchemaIo, anonymous: AnonymousNames) {
    this.io = io;
    this.anonymous = anonymous;
  }

  /** The JSON Schema of one Zod schema; named models inside it become component references. */
  convert(schema: z.ZodType): JsonSchema {
    const cleanUpSide = this.io === "input" ? cleanUpInput : cleanUp;
    const met = new Map<string, z.core.$ZodType>();
    let converted: JsonSchema;
    try {
      converted = z.toJSONSchema(schema, {
        target: "draft-2020-12",
        io: this.io,
        unrepresentable: representAnyway,
        override: (context) => {
          const id = z.globalRegistry.get(context.zodSchema)?.id;
          if (typeof id === "string" && !met.has(id)) met.set(id, context.zodSchema);
          cleanUpSide(context);
        },
      }) as JsonSchema;
    } catch (error) {
      // Zod refuses two schemas with one id in one conversion: the same refusal as across conversions.
      const twin = /^Duplicate schema id "(.*)" detected/.exec((error as Error).message)?.[1];
      if (twin !== undefined) throw twoSchemasNamed(twin);
      throw error;
    }
    namesAsProperties(converted);
    const { $schema: _dialect, $defs, ...root } = converted;
    // The schemas Zod extracted, under a name of this call: a `.meta({ id })`'s, or, for a recursive
    // one without an id (`__schema0`, `__schema1`, … per call), one named when its body is known.
    const unnamed: string[] = [];
    const unnamedOne = () => {
      unnamed.push(`${UNNAMED}${unnamed.length}`);
      return unnamed.at(-1)!;
    };
    const definitions = Object.entries(($defs ?? {}) as Record<string, JsonSchema>);
    const names = new Map<string, string>();
    for (const [key] of definitions) {
      names.set(key, /^__schema\d+$/.test(key) ? unnamedOne() : key.replace(/[^A-Za-z0-9._-]/g, "_"));
      const source = met.get(key);
      if (source !== undefined && !this.sources.has(names.get(key)!))
        this.sources.set(names.get(key)!, source);
    }
    // A recursive schema without a name refers to itself as "#", which in a document is the document.
    const selfName = refersTo(root, (ref) => ref === "#") ? unnamedOne() : undefined;
    const toComponent = (ref: string): string => {
      if (ref === "#" && selfName !== undefined) return COMPONENT_REF_PREFIX + selfName;
      if (!ref.startsWith("#/$defs/")) return ref;
      return COMPONENT_REF_PREFIX + names.get(decodePointerSegment(ref.slice("#/$defs/".length)))!;
    };
    const bodies = new Map<string, JsonSchema>();
    for (const [key, body] of definitions) bodies.set(names.get(key)!, rewriteRefs(body, toComponent));
    rewriteRefs(root, toComponent);
    if (selfName !== undefined) bodies.set(selfName, root);

    const documentNames = this.documentNames(unnamed, bodies);
    const toDocument = (ref: string): string => {
      const name = documentNames.get(ref.slice(COMPONENT_REF_PREFIX.length));
      return name === undefined ? ref : COMPONENT_REF_PREFIX + name;
    };
    for (const [name, body] of bodies) {
      this.addComponent(documentNames.get(name) ?? name, rewriteRefs(body, toDocument));
    }
    if (selfName !== undefined)
      return this.track({ $ref: COMPONENT_REF_PREFIX + documentNames.get(selfName)! });
    return this.track(rewriteRefs(root, toDocument));
  }

  /**
   * The document names of one call's unnamed recursive schemas, from their shapes: the same schema
   * met again (by another endpoint, or on the other side) gets the same name, so it is one
   * component. One that refers to another unnamed one of the call (two that refer to each other)
   * gets a name of its own: the other's document name is not known yet, so its shape says too little.
   */
  private documentNames(unnamed: readonly string[], bodies: ReadonlyMap<string, JsonSchema>) {
    const documentNames = new Map<string, string>();
    for (const name of unnamed) {
      const self = JSON.stringify(COMPONENT_REF_PREFIX + name);
      const shape = JSON.stringify(bodies.get(name)).replaceAll(self, '"#"');
      documentNames.set(
        name,
        shape.includes(UNNAMED) ? this.anonymous.next() : this.anonymous.nameFor(shape),
      );
    }
    return documentNames;
  }

  /** Renames components (and every reference to them) in place: `Student` → `Student-Input`. */
  renameComponents(rename: (name: string) => string): void {
    const toRenamed = (ref: string): string =>
      ref.startsWith(COMPONENT_REF_PREFIX)
        ? COMPONENT_REF_PREFIX + rename(ref.slice(COMPONENT_REF_PREFIX.length))
        : ref;
    for (const schema of this.emitted) rewriteRefs(schema, toRenamed);
    const renamed = new Map<string, JsonSchema>();
    for (const [name, body] of this.components) renamed.set(rename(name), rewriteRefs(body, toRenamed));
    this.components = renamed;
  }

  private track(schema: JsonSchema): JsonSchema {
    this.emitted.push(schema);
    return schema;
  }

  private addComponent(name: string, body: JsonSchema): void {
    const existing = this.components.get(name);
    if (existing !== undefined && !isDeepStrictEqual(existing, body)) throw twoSchemasNamed(name);
    this.components.set(name, body);
  }
}

/** The refusal of two different schemas that share one `.meta({ id })`. */
export function twoSchemasNamed(name: string): ValueError {
  return new ValueError(
    `Two different schemas are named "${name}" (.meta({ id: "${name}" })), so the OpenAPI document cannot tell them apart; give each schema its own id, or reuse one schema object.`,
  );
}

/** Types JSON Schema has no word for, described as they travel: files and dates as strings. */
function representAnyway(context: { zodSchema: z.core.$ZodType }): JsonSchema | "any" {
  const type = context.zodSchema._zod.def.type;
  if (type === "custom" && isUploadFileCheck(context.zodSchema)) return { type: "string", format: "binary" };
  if (type === "date") return { type: "string", format: "date-time" };
  return "any";
}

/** `z.instanceof(UploadFile)` remembers its class; a copy made by `.meta()` finds it on its parent. */
function isUploadFileCheck(schema: z.core.$ZodType): boolean {
  for (let current: z.core.$ZodType | undefined = schema; current; current = current._zod.parent) {
    if ((current._zod.bag as { Class?: unknown }).Class === UploadFile) return true;
  }
  return false;
}

/** Removes what only Zod or the framework means, so that the document says what the API accepts. */
function cleanUp(context: { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }): void {
  const { jsonSchema, zodSchema } = context;
  for (const key of FRAMEWORK_META_KEYS) delete jsonSchema[key];
  // z.int()'s safe-integer bounds, which Zod writes, stay: the server refuses a number past them.
  // Swagger UI makes its examples from a pattern: the regex Zod wrote for a format is dropped when the
  // format says it, so Try it out offers a date, not a string made from a date's regex.
  if (
    FORMATS_THAT_SAY_IT.has(jsonSchema.format as string) &&
    typeof jsonSchema.pattern === "string" &&
    isZodsOwnPattern(zodSchema, jsonSchema.pattern)
  ) {
    delete jsonSchema.pattern;
  }
  // JSON Schema's `time` is RFC 3339's full-time, with an offset, which z.iso.time() refuses (so Zod
  // writes no format); the OpenAPI registry's `time-local` is the time without one. Its pattern stays.
  if (jsonSchema.format === undefined && takesLocalTime(zodSchema)) jsonSchema.format = "time-local";
  // Zod closes output objects, but a handler's body goes out as it is: only a strict object is closed.
  const def = zodSchema._zod.def as { type: string; catchall?: z.core.$ZodType };
  if (def.type === "object" && def.catchall === undefined && jsonSchema.additionalProperties === false) {
    delete jsonSchema.additionalProperties;
  }
}

/**
 * `cleanUp`, and for what a client sends: `.readonly()` makes the parsed value immutable in
 * TypeScript, but JSON Schema's `readOnly` says that a client does not send the value (Swagger UI
 * leaves such a field out of Try it out's body, a validating proxy may refuse it), so a request's
 * schema goes without it, unless `.meta({ readOnly: true })` asks for it.
 */
function cleanUpInput(context: { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }): void {
  cleanUp(context);
  const { jsonSchema, zodSchema } = context;
  if (
    zodSchema._zod.def.type === "readonly" &&
    jsonSchema.readOnly === true &&
    z.globalRegistry.get(zodSchema)?.readOnly !== true
  ) {
    delete jsonSchema.readOnly;
  }
}

/**
 * The formats of JSON Schema that readers and example generators know. Zod's own names (`nanoid`,
 * `cuid`, `e164`, `starts_with`, …) say nothing to them, so their patterns stay.
 */
const FORMATS_THAT_SAY_IT = new Set([
  "date-time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);

/**
 * True for `z.iso.time()` unless it takes hours and minutes only (`{ precision: -1 }`): its values
 * with seconds are RFC 3339 partial-times, the OpenAPI format registry's `time-local`.
 */
function takesLocalTime(schema: z.core.$ZodType): boolean {
  const checks = [schema, ...((schema._zod.def as { checks?: z.core.$ZodType[] }).checks ?? [])];
  return checks.some((check) => {
    const def = check._zod.def as { check?: string; format?: string; precision?: number | null };
    return def.check === "string_format" && def.format === "time" && def.precision !== -1;
  });
}

/**
 * True when `pattern` is the one Zod gives the schema's format check by itself: a `pattern` the
 * user gave the format (`z.email({ pattern })`) differs from what a fresh check of the same
 * definition would hold. (A `.regex()` beside a format makes Zod drop the format.)
 */
function isZodsOwnPattern(schema: z.core.$ZodType, pattern: string): boolean {
  const checks = [schema, ...((schema._zod.def as { checks?: z.core.$ZodType[] }).checks ?? [])];
  for (const check of checks) {
    const def = check._zod.def as { check?: string; pattern?: RegExp };
    if (def.check !== "string_format" || def.pattern?.source !== pattern) continue;
    // `z.hostname()` is a custom format, made with its regex as an argument: a fresh check has none.
    if ((def as { format?: string }).format === "hostname") return pattern === z.regexes.hostname.source;
    const Check = check.constructor as new (def: object) => z.core.$ZodType;
    const fresh = new Check({ ...def, pattern: undefined })._zod.def as { pattern?: RegExp };
    return fresh.pattern?.source === pattern;
  }
  return false;
}

/**
 * Writes a record over listed names (`z.record(z.enum(["read", "write"]), V)`, which Zod writes as
 * `propertyNames` with an `enum` and `additionalProperties: V`) as those names' `properties`, each
 * `V`, and no other: the same schema, in the form that documentation pages show field by field and
 * client generators type name by name (Redocly otherwise warns of required names it cannot see).
 * In place, everywhere inside `schema`.
 */
function namesAsProperties(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) namesAsProperties(item);
    return;
  }
  if (typeof value !== "object" || value === null) return;
  const schema = value as JsonSchema;
  for (const key of Object.keys(schema)) {
    if (!DATA_KEYWORDS.has(key)) namesAsProperties(schema[key]);
  }
  const listed = schema.propertyNames as JsonSchema | undefined;
  const names = Array.isArray(listed?.enum)
    ? listed.enum
    : listed !== undefined && "const" in listed
      ? [listed.const]
      : [];
  const each = schema.additionalProperties;
  if (
    schema.properties !== undefined ||
    names.length === 0 ||
    !names.every((name) => typeof name === "string") ||
    typeof each !== "object" ||
    each === null
  ) {
    return;
  }
  // Rewritten in the order the document's other objects have: type, properties, required.
  const { type, required, propertyNames: _names, additionalProperties: _each, ...rest } = schema;
  for (const key of Object.keys(schema)) delete schema[key];
  Object.assign(schema, {
    ...(type !== undefined && { type }),
    properties: Object.fromEntries(names.map((name) => [name, structuredClone(each)])),
    ...(required !== undefined && { required }),
    additionalProperties: false,
    ...rest,
  });
}

/**
 * A schema of a value read from text (a path, a query, a header, a cookie, a form field) without its
 * `null`: text has no null, so a nullable parameter is sent as its other type or not at all, and a
 * client told that null is allowed would send the text "null". In place, in the schema and its
 * items (a list's values are text too); a default of null stays, the value the server uses when
 * none is sent. A schema that is only null is left as it is. Returns the schema.
 *
 * @example withoutNull({ type: ["string", "null"] }) // { type: "string" }
 */
export function withoutNull(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.type) && schema.type.includes("null")) {
    const types = (schema.type as string[]).filter((type) => type !== "null");
    if (types.length > 0) schema.type = types.length === 1 ? types[0]! : types;
  }
  if (Array.isArray(schema.enum) && schema.enum.includes(null) && schema.enum.length > 1) {
    schema.enum = schema.enum.filter((value) => value !== null);
  }
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const options = schema[keyword];
    if (!Array.isArray(options)) continue;
    const kept = (options as JsonSchema[]).filter((option) => option.type !== "null");
    if (kept.length === 0 || kept.length === options.length) continue;
    if (kept.length > 1) schema[keyword] = kept;
    else {
      // The one option left is the schema: its keywords join the wrapper's (description, default).
      delete schema[keyword];
      for (const [key, value] of Object.entries(kept[0]!)) if (!(key in schema)) schema[key] = value;
    }
  }
  if (typeof schema.items === "object" && schema.items !== null && !Array.isArray(schema.items)) {
    withoutNull(schema.items as JsonSchema);
  }
  return schema;
}

/** Replaces every `$ref` inside a schema, in place; returns the schema. */
export function rewriteRefs(schema: JsonSchema, replace: (ref: string) => string): JsonSchema {
  visitRefs(schema, (holder) => {
    holder.$ref = replace(holder.$ref as string);
  });
  return schema;
}

/** True when a `$ref` inside the schema satisfies the test. */
export function refersTo(schema: JsonSchema, test: (ref: string) => boolean): boolean {
  let found = false;
  visitRefs(schema, (holder) => {
    if (test(holder.$ref as string)) found = true;
  });
  return found;
}

/** Keywords whose value is data (never a schema), and keywords whose value maps names to schemas. */
const DATA_KEYWORDS = new Set(["default", "examples", "example", "const", "enum"]);
const SCHEMA_MAP_KEYWORDS = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"]);

function visitRefs(value: unknown, visit: (holder: JsonSchema) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) visitRefs(item, visit);
    return;
  }
  if (typeof value !== "object" || value === null) return;
  const schema = value as JsonSchema;
  if (typeof schema.$ref === "string") visit(schema);
  for (const key of Object.keys(schema)) {
    if (DATA_KEYWORDS.has(key)) continue;
    const child = schema[key];
    if (SCHEMA_MAP_KEYWORDS.has(key) && typeof child === "object" && child !== null) {
      for (const entry of Object.values(child)) visitRefs(entry, visit);
    } else {
      visitRefs(child, visit);
    }
  }
}

function decodePointerSegment(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}
