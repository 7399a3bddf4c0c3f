import { z } from "zod";
import { TypeHintRequired, ValueError } from "../errors.ts";
import { UploadFile } from "../file/upload-file.ts";
import type {
  BodyFormat,
  EndpointDescription,
  Location,
  ParamDescription,
  WireField,
} from "./description.ts";
import { LOCATIONS } from "./description.ts";
import type { EndpointDefinition } from "./endpoint.ts";
import { applyFieldOptions } from "./field-options.ts";
import { type FieldOptions, FileParam, type MarkerKind, Param, ResponseSpec } from "./params.ts";
import { QueryReader } from "./query-reader.ts";
import {
  acceptsMissing,
  hasOwnDefault,
  isZodSchema,
  type ModelField,
  type SchemaShape,
  shapeOf,
  typeName,
  unwrap,
} from "./schema-shape.ts";

const SUPPORTED =
  "supported types are string, number, int, boolean, enum, literal, arrays of those, z.object models, and files (p.File)";

const LOCATION_OF: Record<MarkerKind, Location> = {
  path: "path",
  query: "query",
  header: "header",
  cookie: "cookie",
  json: "body",
  form: "body",
  file: "body",
};

const MARKER_NAMES: Record<MarkerKind, string> = {
  path: "p.Path",
  query: "p.Query",
  header: "p.Header",
  cookie: "p.Cookie",
  json: "p.Json",
  form: "p.Form",
  file: "p.File",
};

export interface AnalyseOptions {
  /** The route's full path, with its `{name}` placeholders. */
  path: string;
  /** How messages name the endpoint: `endpoint "list_students" (GET /api/enroll/student-list)`. */
  label: string;
  /** The app's per-file size limit, the ceiling of every `p.File({ maxSize })`. */
  fileSizeLimit: number;
}

/**
 * Analyses an endpoint's declarations against its route path. Raises `ValueError` or
 * `TypeHintRequired` naming the endpoint, the parameter, the problem and the fix.
 */
export function analyseEndpoint(endpoint: EndpointDefinition, options: AnalyseOptions): EndpointDescription {
  const { label } = options;
  const placeholders = placeholdersOf(options.path);
  const returns = endpoint.returns as unknown;
  if (returns === undefined || returns === null) {
    throw new TypeHintRequired(
      `${label} has no returns. Declare what it answers: returns: JsonResponse, or returns: [p.ResponseSpec({ model: MyResponse })].`,
    );
  }
  const responses = describeReturns(returns, label);

  const params: ParamDescription[] = [];
  const declared = (endpoint.params ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(declared)) {
    params.push(describeParam(name, declared[name], placeholders, options));
  }

  checkWireNames(params, label);
  const bodyFormat = bodyFormatOf(params, label);
  const byLocation = Object.fromEntries(
    LOCATIONS.map((location) => [location, [] as ParamDescription[]]),
  ) as Record<Location, ParamDescription[]>;
  for (const param of params) byLocation[param.location].push(param);
  // A JSON model alone in the body is validated on the body itself (its errors then point at
  // `body`, and strict or loose objects keep their meaning), unless aliases rename its fields.
  const jsonParams = byLocation.body.filter((param) => param.marker === "json");
  const only = jsonParams.length === 1 ? jsonParams[0]! : undefined;
  if (only?.shape === "model" && only.fields.every((field) => field.wireName === field.key))
    only.wholeBody = true;

  return {
    endpoint,
    label,
    params,
    byLocation,
    queryReader:
      byLocation.query.length === 0
        ? undefined
        : new QueryReader(byLocation.query.flatMap((param) => param.fields.map((field) => field.wireName))),
    bodyFormat,
    fileSizeLimits: new Map(
      params.flatMap((param) =>
        param.fileSizeLimit === undefined ? [] : [[param.fields[0]!.wireName, param.fileSizeLimit] as const],
      ),
    ),
    validator: buildValidator(byLocation),
    responses: Array.isArray(responses) ? responses : null,
    responseClass: Array.isArray(responses) ? undefined : (responses as Function),
  };
}

function describeReturns(returns: unknown, label: string): readonly ResponseSpec[] | Function {
  if (typeof returns === "function") return returns;
  if (
    Array.isArray(returns) &&
    returns.length > 0 &&
    returns.every((entry) => entry instanceof ResponseSpec)
  ) {
    const codes = new Set<string>();
    for (const spec of returns as ResponseSpec[]) {
      if (!/^[1-5]\d\d$/.test(spec.code)) {
        throw new ValueError(
          `${label}: the ResponseSpec code "${spec.code}" is not an HTTP status code such as "200".`,
        );
      }
      if (!isZodSchema(spec.model)) {
        throw new TypeHintRequired(
          `${label}: a ResponseSpec (code ${spec.code}) has no model; give a Zod schema: p.ResponseSpec({ model: MyResponse }).`,
        );
      }
      if (codes.has(spec.code)) {
        throw new ValueError(
          `${label}: two ResponseSpec entries document the status ${spec.code}; give one entry per status code.`,
        );
      }
      codes.add(spec.code);
    }
    return returns as ResponseSpec[];
  }
  throw new ValueError(
    `${label}: returns must be a response class (JsonResponse, PlainTextResponse) or a non-empty list of p.ResponseSpec(...).`,
  );
}

function describeParam(
  name: string,
  declaration: unknown,
  placeholders: ReadonlySet<string>,
  options: AnalyseOptions,
): ParamDescription {
  const where = `${options.label}, parameter "${name}"`;
  if (declaration === undefined || declaration === null) {
    throw new TypeHintRequired(
      `${where} has no schema. Give its type with a marker: ${name}: p.Query(z.string()).`,
    );
  }
  if (declaration instanceof FileParam) return describeFile(name, declaration, options);
  if (declaration instanceof Param) {
    if (!isZodSchema(declaration.schema)) {
      throw new TypeHintRequired(
        `${where} has no schema. Give its type to the marker: ${name}: ${MARKER_NAMES[declaration.kind as MarkerKind]}(z.string()).`,
      );
    }
    return describeMarked(
      name,
      declaration.kind,
      declaration.schema,
      declaration.options,
      false,
      placeholders,
      options,
    );
  }
  if (isZodSchema(declaration)) {
    if (hasOwnDefault(declaration)) {
      throw new ValueError(
        `${where} is a bare schema with a default. Give the default with a marker: ${name}: p.Query(z.${zodFactoryName(declaration)}(), { default: … }).`,
      );
    }
    const kind = detectSource(name, declaration, placeholders);
    if (kind === undefined) {
      throw new ValueError(`${where} has an unsupported type ${describeType(declaration)}; ${SUPPORTED}.`);
    }
    return describeMarked(name, kind, declaration, {}, true, placeholders, options);
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
  return undefined;
}

function describeMarked(
  name: string,
  kind: MarkerKind,
  declaredSchema: z.ZodType,
  fieldOptions: FieldOptions,
  detected: boolean,
  placeholders: ReadonlySet<string>,
  options: AnalyseOptions,
): ParamDescription {
  const where = `${options.label}, parameter "${name}"`;
  const marker = MARKER_NAMES[kind as MarkerKind];
  const fromStrings = kind !== "json";
  const shape: SchemaShape = shapeOf(declaredSchema, fromStrings);
  if (shape.kind === "unsupported") {
    throw new ValueError(`${where} has an unsupported type ${shape.typeName} for ${marker}; ${SUPPORTED}.`);
  }
  if (kind === "path" && shape.kind === "list") {
    throw new ValueError(
      `${where}: a path placeholder holds one value, not a list; read lists from p.Query.`,
    );
  }
  if (shape.kind === "model" && fieldOptions.default !== undefined) {
    throw new ValueError(
      `${where}: a model takes its defaults on its fields, not on the marker; put .default(…) on the model's fields.`,
    );
  }
  if (shape.kind === "model" && fieldOptions.alias !== undefined) {
    throw new ValueError(
      `${where}: a model has no wire name of its own; give aliases on its fields with .meta({ alias: "…" }).`,
    );
  }
  const schema = applyFieldOptions(declaredSchema, fieldOptions);
  if (typeof schema === "string") throw new ValueError(`${where}: ${schema}.`);

  const location = LOCATION_OF[kind];
  const fields: WireField[] =
    shape.kind === "model"
      ? shape.fields.map((field) => modelWireField(kind, field))
      : [
          {
            key: null,
            ...wireNames(kind, name, fieldOptions.alias),
            list: shape.kind === "list",
            coerce: shape.coerce,
            schema,
            required: !acceptsMissing(schema),
          },
        ];
  if (kind === "path") {
    for (const field of fields) {
      if (!placeholders.has(field.wireName)) {
        const read = field.key === null ? `is read from the path` : `has the path field "${field.key}"`;
        throw new ValueError(
          `${where} ${read}, but the route path "${options.path}" has no placeholder {${field.wireName}}. Add {${field.wireName}} to the path, or read the value from another source such as p.Query.`,
        );
      }
    }
  }
  return {
    name,
    marker: kind,
    location,
    detected,
    shape: shape.kind === "model" ? "model" : shape.kind,
    schema,
    required: !acceptsMissing(schema),
    fields,
    options: fieldOptions,
    wholeBody: false,
    fileSizeLimit: undefined,
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
  const documented =
    alias ??
    name
      .replace(/_/g, "-")
      .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
      .toLowerCase();
  return { wireName: documented.toLowerCase(), documentedName: documented };
}

function describeFile(name: string, declaration: FileParam, options: AnalyseOptions): ParamDescription {
  const where = `${options.label}, parameter "${name}"`;
  const fileOptions = declaration.options;
  const maxSize = fileOptions.maxSize;
  if (
    maxSize !== undefined &&
    (!Number.isInteger(maxSize) || maxSize <= 0 || maxSize > options.fileSizeLimit)
  ) {
    throw new ValueError(
      `${where}: maxSize ${maxSize} must be a positive whole number of bytes no larger than the app's LIMITS.file_size (${options.fileSizeLimit}).`,
    );
  }
  const one = z.instanceof(UploadFile);
  let schema: z.ZodType = fileOptions.list ? z.array(one) : one;
  if (fileOptions.list && !fileOptions.optional) schema = (schema as z.ZodArray).min(1);
  if (fileOptions.optional) schema = fileOptions.list ? schema.default([]) : schema.optional();
  const meta: Record<string, unknown> = {};
  if (fileOptions.title !== undefined) meta.title = fileOptions.title;
  if (fileOptions.description !== undefined) meta.description = fileOptions.description;
  if (fileOptions.deprecated !== undefined) meta.deprecated = fileOptions.deprecated;
  // Registered in place: .meta() would clone z.instanceof, and the clone reports an absent file as
  // a "custom" issue instead of "invalid_type", which resolve-params turns into "Field required".
  if (Object.keys(meta).length > 0) schema.register(z.globalRegistry, meta);
  const wireName = fileOptions.alias ?? name;
  return {
    name,
    marker: "file",
    location: "body",
    detected: false,
    shape: fileOptions.list ? "file-list" : "file",
    schema,
    required: !fileOptions.optional,
    fields: [
      {
        key: null,
        wireName,
        documentedName: wireName,
        list: Boolean(fileOptions.list),
        coerce: undefined,
        schema,
        required: !fileOptions.optional,
      },
    ],
    options: fileOptions,
    wholeBody: false,
    fileSizeLimit: maxSize ?? options.fileSizeLimit,
  };
}

/** Rule 15: within one source, no two parameters (or model fields) read the same name. */
function checkWireNames(params: readonly ParamDescription[], label: string): void {
  const seen = new Map<string, { param: ParamDescription; field: WireField }>();
  for (const param of params) {
    for (const field of param.fields) {
      const key = `${param.location}\u0000${field.wireName}`;
      const other = seen.get(key);
      if (other) {
        const describe = (p: ParamDescription, f: WireField) =>
          f.key === null ? `"${p.name}"` : `"${p.name}" (field "${f.key}")`;
        throw new ValueError(
          `${label}: parameters ${describe(other.param, other.field)} and ${describe(param, field)} both read the ${sourceWord(param.location)} name "${field.wireName}". Rename one of them or give it an alias.`,
        );
      }
      seen.set(key, { param, field });
    }
  }
}

function sourceWord(location: Location): string {
  return location === "body" ? "body" : location;
}

/** Rule 12: JSON and form bodies exclude each other; files make the form multipart. */
function bodyFormatOf(params: readonly ParamDescription[], label: string): BodyFormat | undefined {
  const json = params.find((param) => param.marker === "json");
  const form = params.find((param) => param.marker === "form" || param.marker === "file");
  if (json && form) {
    throw new ValueError(
      `${label}: parameters "${json.name}" (${json.detected ? "a model, detected as Json" : "p.Json"}) and "${form.name}" (${MARKER_NAMES[form.marker]}) read the body in two formats. An endpoint reads a JSON body or a form, not both: use p.Json for every body parameter, or p.Form/p.File for all of them.`,
    );
  }
  if (json) return "json";
  if (params.some((param) => param.marker === "file")) return "multipart";
  if (form) return "form";
  return undefined;
}

function buildValidator(byLocation: Record<Location, ParamDescription[]>): z.ZodType | undefined {
  // Keyed by parameter name (unique across locations), in location order, so that issues come in
  // the order the sources are read.
  const shape: Record<string, z.ZodType> = {};
  for (const location of LOCATIONS)
    for (const param of byLocation[location]) shape[param.name] = param.schema;
  if (Object.keys(shape).length === 0) return undefined;
  return z.compile(z.object(shape));
}

function placeholdersOf(path: string): Set<string> {
  return new Set(Array.from(path.matchAll(/\{([^}]+)\}/g), (match) => match[1]!));
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
