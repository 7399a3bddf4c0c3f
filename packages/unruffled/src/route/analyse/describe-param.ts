import { z } from "zod";
import { TypeHintRequired, ValueError } from "../../errors.ts";
import {
  type FieldOptions,
  FileParam,
  type JsonOptions,
  MARKER_NAMES,
  type MarkerKind,
  Param,
} from "../declare/markers.ts";
import type { Location, ParamDescription, WireField } from "../description.ts";
import { dateReaderOf } from "../wire/json-dates.ts";
import { passesUncheckedNumbers } from "../wire/json-numbers.ts";
import { describeFile } from "./describe-file.ts";
import { applyFieldOptions, unknownOption } from "./field-options.ts";
import { notCarriedByJson } from "./json-carriage.ts";
import {
  acceptsMissing,
  asNullable,
  carriesOnlyNull,
  hasOwnDefault,
  isAnyValue,
  isStrictObject,
  isZodSchema,
  type ModelField,
  type SchemaShape,
  shapeOf,
  typeName,
  unwrap,
} from "./schema-shape.ts";

const SUPPORTED =
  "supported types are string, number, int, boolean, date, enum, literals of strings, numbers and booleans, arrays of those, z.object models, and files (p.File)";
const SUPPORTED_IN_JSON =
  "a JSON body takes strings, numbers, booleans, dates, enums, literals, null, tuples, arrays, z.object models, unions, records, intersections and z.unknown()";

// How the refusal of a null names each source of text.
const TEXT_SOURCES: Partial<Record<MarkerKind, string>> = {
  path: "a path",
  query: "a query string",
  header: "a header",
  cookie: "a cookie",
  form: "a form field",
};

const LOCATION_OF: Record<MarkerKind, Location> = {
  path: "path",
  query: "query",
  header: "header",
  cookie: "cookie",
  json: "body",
  form: "body",
  file: "body",
};

/** What describing one parameter needs to know of its endpoint and route. */
export interface ParamContext {
  /** How messages name the endpoint: `endpoint "list_students" (GET /api/enroll/student-list)`. */
  label: string;
  /** The route's full path, with its `{name}` placeholders. */
  path: string;
  /** The names of those placeholders. */
  placeholders: ReadonlySet<string>;
  /** Why there is no path to read, for a request the API sends: `a webhook has no path`. */
  pathless?: string | undefined;
  /** The app's per-file size limit, the ceiling of every `p.File({ maxSize })`. */
  fileSizeLimit: number;
}

/**
 * Describes one entry of `params`: its source (declared by a marker, or detected for a bare schema),
 * its shape, the schema that validates it with the marker's options applied, and the names it reads
 * on the wire. Raises `ValueError` or `TypeHintRequired` naming the endpoint, the parameter and the fix.
 *
 * @example describeParam("page", p.Query(z.int(), { default: 1 }), context).fields[0].wireName // "page"
 */
export function describeParam(name: string, declaration: unknown, context: ParamContext): ParamDescription {
  const where = `${context.label}, parameter "${name}"`;
  if (declaration === undefined || declaration === null) {
    throw new TypeHintRequired(
      `${where} has no schema. Give its type with a marker: ${name}: p.Query(z.string()).`,
    );
  }
  if (declaration instanceof FileParam) return describeFile(name, declaration, where, context.fileSizeLimit);
  if (declaration instanceof Param) {
    if (!isZodSchema(declaration.schema)) {
      throw new TypeHintRequired(
        `${where} has no schema. Give its type to the marker: ${name}: ${MARKER_NAMES[declaration.kind as MarkerKind]}(z.string()).`,
      );
    }
    return describeMarked(name, declaration.kind, declaration.schema, declaration.options, false, context);
  }
  if (isZodSchema(declaration)) {
    if (hasOwnDefault(declaration)) {
      throw new ValueError(
        `${where} is a bare schema with a default. Give the default with a marker: ${name}: p.Query(z.${zodFactoryName(declaration)}(), { default: … }).`,
      );
    }
    const kind = detectSource(name, declaration, context.placeholders);
    if (kind === undefined) {
      throw new ValueError(`${where} has an unsupported type ${describeType(declaration)}; ${SUPPORTED}.`);
    }
    return describeMarked(name, kind, declaration, {}, true, context);
  }
  throw new ValueError(
    `${where} is a bare default (${JSON.stringify(declaration)}), not a schema. Declare the type with a marker and give the default there: ${name}: p.Query(z.${typeof declaration === "number" ? "int" : typeof declaration}(), { default: ${JSON.stringify(declaration)} }).`,
  );
}

/** Rule 9: scalars named like a placeholder are Path, other scalars and lists Query, models Json. */
function detectSource(
  name: string,
  schema: z.ZodType,
  placeholders: ReadonlySet<string>,
): MarkerKind | undefined {
  const shape = shapeOf(schema, true);
  if (shape.kind === "model") return "json";
  if (shape.kind === "scalar") return placeholders.has(name) ? "path" : "query";
  if (shape.kind === "list") return "query";
  // A union of models, a record or an intersection is an object too: the JSON body, as a model is.
  const asJson = shapeOf(schema, false);
  if (asJson.kind === "scalar" && asJson.whole && !isAnyValue(schema)) return "json";
  return undefined;
}

function describeMarked(
  name: string,
  kind: MarkerKind,
  declaredSchema: z.ZodType,
  fieldOptions: FieldOptions,
  detected: boolean,
  context: ParamContext,
): ParamDescription {
  const where = `${context.label}, parameter "${name}"`;
  const marker = MARKER_NAMES[kind as MarkerKind];
  const fromStrings = kind !== "json";
  if (fromStrings) declaredSchema = asNullable(declaredSchema);
  const shape: SchemaShape = shapeOf(declaredSchema, fromStrings);
  if (shape.kind === "unsupported" && kind !== "json" && carriesOnlyNull(declaredSchema)) {
    throw new ValueError(
      `${where} has an unsupported type ${shape.typeName} for ${marker}: ${TEXT_SOURCES[kind]} holds text, never JSON's null (every request would get a 422). ${
        kind === "path"
          ? `Declare what the placeholder holds: ${name}: p.Path(z.string()).`
          : `For a value that may be left out, declare ${name}: ${marker}(z.string().optional()), undefined when absent, or ${name}: ${marker}(z.string().nullable(), { default: null }), null when absent.`
      }`,
    );
  }
  if (shape.kind === "unsupported") {
    const supported = kind === "json" ? SUPPORTED_IN_JSON : SUPPORTED;
    throw new ValueError(`${where} has an unsupported type ${shape.typeName} for ${marker}; ${supported}.`);
  }
  const notCarried = kind === "json" ? notCarriedByJson(declaredSchema, "request") : undefined;
  if (notCarried !== undefined) {
    const part = notCarried.path === "" ? "it" : `its field "${notCarried.path}"`;
    throw new ValueError(
      `${where} cannot be read from a JSON body: ${part} is a ${notCarried.type}, which JSON has no value for (every request would get a 422); declare ${notCarried.instead}.`,
    );
  }
  if (kind === "path" && shape.kind === "list") {
    throw new ValueError(
      `${where}: a path placeholder holds one value, not a list; read lists from p.Query.`,
    );
  }
  const embed = (fieldOptions as JsonOptions).embed;
  if (embed !== undefined && kind !== "json") {
    throw new ValueError(
      `${where}: the option embed reads a JSON body's key, and applies to p.Json only, not to ${marker}.`,
    );
  }
  if (embed !== undefined && typeof embed !== "boolean") {
    throw new ValueError(`${where}: the option embed is true or false, not ${JSON.stringify(embed)}.`);
  }
  // Embedded (FastAPI's Body(embed=True)): read from its own key, as a scalar is, never the whole body.
  const embedded = embed === true;
  const spread = shape.kind === "model" && !embedded;
  if (spread && fieldOptions.default !== undefined) {
    throw new ValueError(
      `${where}: a model takes its defaults on its fields, not on the marker; put .default(…) on the model's fields.`,
    );
  }
  if (spread && fieldOptions.alias !== undefined) {
    throw new ValueError(
      `${where}: a model has no wire name of its own; give aliases on its fields with .meta({ alias: "…" }).`,
    );
  }
  const unknown = unknownOption(fieldOptions);
  if (unknown !== undefined) throw new ValueError(`${where} ${unknown}.`);
  const schema = applyFieldOptions(declaredSchema, fieldOptions);
  if (typeof schema === "string") throw new ValueError(`${where}: ${schema}.`);

  const fields: WireField[] = spread
    ? shape.fields.map((field) => modelWireField(kind, field))
    : [
        {
          key: null,
          ...wireNames(kind, name, fieldOptions.alias),
          list: shape.kind === "list",
          coerce: shape.kind === "model" ? undefined : shape.coerce,
          schema,
          required: !acceptsMissing(schema),
        },
      ];
  if (kind === "path" && context.pathless !== undefined) {
    throw new ValueError(
      `${where} is read from the path, but ${context.pathless}; send it in the body, a header or the query.`,
    );
  }
  if (kind === "path") {
    for (const field of fields) {
      if (!context.placeholders.has(field.wireName)) {
        const read = field.key === null ? `is read from the path` : `has the path field "${field.key}"`;
        throw new ValueError(
          `${where} ${read}, but the route path "${context.path}" has no placeholder {${field.wireName}}. Add {${field.wireName}} to the path, or read the value from another source such as p.Query.`,
        );
      }
    }
  }
  return {
    name,
    key: name,
    owner: undefined,
    marker: kind,
    location: LOCATION_OF[kind],
    detected,
    // An embedded model is one value at one key: a scalar to every reader of the description.
    shape: spread ? "model" : shape.kind === "model" ? "scalar" : shape.kind,
    schema,
    // A model read from strings is gathered field by field, and is empty when none is sent: it is
    // required only when one of its fields is.
    required: !acceptsMissing(schema) && (!spread || kind === "json" || fields.some((f) => f.required)),
    fields,
    options: fieldOptions,
    // A union of models, a record, any value: no fields to pick from the body, which it is whole.
    wholeBody: shape.kind === "scalar" && shape.whole === true && !embedded,
    fileSizeLimit: undefined,
    // JSON has no dates: those of a JSON body arrive as ISO strings, read into Dates before validation.
    readDates: kind === "json" ? dateReaderOf(schema) : undefined,
    uncheckedNumbers: kind === "json" && passesUncheckedNumbers(schema),
    absentWhenEmpty: spread && LOCATION_OF[kind] === "body" && acceptsMissing(schema),
    // Completed by analyseEndpoint with the names the location's other parameters read.
    knownNames:
      spread && kind !== "path" && isStrictObject(declaredSchema)
        ? new Set(shape.fields.flatMap((field, index) => namesNotExtra(kind, field, fields[index]!)))
        : undefined,
  };
}

function modelWireField(kind: MarkerKind, field: ModelField): WireField {
  const alias = aliasOf(field.schema);
  return {
    key: field.key,
    ...wireNames(kind, field.key, alias),
    list: field.shape.kind === "list",
    coerce: field.shape.kind === "scalar" || field.shape.kind === "list" ? field.shape.coerce : undefined,
    schema: field.schema,
    required: !acceptsMissing(field.schema),
  };
}

/**
 * The names of a strict model's field that are not extra: its wire name and, for a header without an
 * alias, the field's key (`save_data` beside `save-data`), dropped as FastAPI drops it. A key spelt
 * instead of an alias is extra, as pydantic's `extra="forbid"` takes it.
 */
function namesNotExtra(kind: MarkerKind, field: ModelField, wire: WireField): string[] {
  return kind === "header" && aliasOf(field.schema) === undefined
    ? [wire.wireName, field.key]
    : [wire.wireName];
}

/** A model field's alias, given with `.meta({ alias: "X-Token" })`. */
function aliasOf(schema: z.ZodType): string | undefined {
  const alias = z.globalRegistry.get(schema)?.alias;
  return typeof alias === "string" ? alias : undefined;
}

/**
 * Header names: `x_token` and `xToken` read `x-token`; an alias is used as given. Lookup is by the
 * lower-case name because Node (and the Fetch standard) lower-case header names.
 */
function wireNames(kind: MarkerKind, name: string, alias: string | undefined) {
  if (kind !== "header") return { wireName: alias ?? name, documentedName: alias ?? name };
  const documented = alias ?? headerNameOf(name);
  return { wireName: documented.toLowerCase(), documentedName: documented };
}

/**
 * The header a parameter name reads. With `_` or `-` in it, each `_` is a hyphen and a word starts at
 * a capital after a lower-case letter or digit (`x_token`, `user_agent`). Written in camelCase, a run
 * of capitals is one word, a leading `X` before a capital is the `X-` prefix, and any other leading
 * single capital joins the word after it.
 *
 * @example headerNameOf("XRequestId") // "x-request-id"; "contentMD5" → "content-md5", "ETag" → "etag"
 */
function headerNameOf(name: string): string {
  if (/[_-]/.test(name)) {
    return name
      .replace(/_/g, "-")
      .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
      .toLowerCase();
  }
  return name
    .replace(/^X(?=[A-Z])/, "X-")
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1-$2")
    .replace(/^([A-WYZ])-/, "$1")
    .toLowerCase();
}

function describeType(schema: z.ZodType): string {
  const shape = shapeOf(schema, true);
  return shape.kind === "unsupported" ? shape.typeName : typeName(schema);
}

/** How the schema is usually written: `int` for `z.int()`, else its type name. */
function zodFactoryName(schema: z.ZodType): string {
  const base = unwrap(schema);
  const format = (base._zod.def as { format?: string }).format;
  return format?.includes("int") ? "int" : typeName(base);
}
