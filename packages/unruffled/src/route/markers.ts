import type { z } from "zod";
import { ResponseSpec, type ResponseSpecOptions } from "./response-spec.ts";

/** Where a marker reads its value from. */
export type MarkerKind = "path" | "query" | "header" | "cookie" | "json" | "form" | "file";

/**
 * The seed's `FieldInfo` keyword arguments. Constraints are enforced by Zod and appear in the
 * OpenAPI schema, exactly as if they were written on the Zod schema.
 */
export interface FieldOptions<T = unknown> {
  /** The value when the request does not carry the parameter; it makes the parameter optional. */
  default?: T;
  /** The name on the wire when it differs from the parameter name (`X-Request-ID`, `page[size]`). */
  alias?: string;
  title?: string;
  description?: string;
  example?: unknown;
  examples?: unknown[];
  deprecated?: boolean;
  ge?: number;
  gt?: number;
  le?: number;
  lt?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string | RegExp;
}

/** How messages write each marker. */
export const MARKER_NAMES: Readonly<Record<MarkerKind, string>> = {
  path: "p.Path",
  query: "p.Query",
  header: "p.Header",
  cookie: "p.Cookie",
  json: "p.Json",
  form: "p.Form",
  file: "p.File",
};

/** A parameter declaration: which source, which schema, which options. Made by the `p.*` markers. */
export class Param<
  K extends MarkerKind = MarkerKind,
  S = z.ZodType | undefined,
  HasDefault extends boolean = boolean,
> {
  readonly kind: K;
  readonly schema: S;
  readonly options: FieldOptions;
  /** Type-level only: whether a default makes the value always present. */
  declare readonly hasDefault: HasDefault;

  constructor(kind: K, schema: S, options: FieldOptions = {}) {
    this.kind = kind;
    this.schema = schema;
    this.options = options;
  }
}

/** Options of `p.File`. */
export interface FileOptions {
  /** Accept several files under this field name; the value is then an array. */
  list?: boolean;
  /** Allow the field to be absent; the value is then `undefined` (or `[]` for a list). */
  optional?: boolean;
  /** Largest file accepted for this field, in bytes (at most the app's `LIMITS.file_size`). */
  maxSize?: number;
  alias?: string;
  title?: string;
  description?: string;
  deprecated?: boolean;
}

/** A file parameter, read from a multipart body as `UploadFile` (or a list of them). */
export class FileParam<List extends boolean = boolean, Optional extends boolean = boolean> {
  readonly kind = "file" as const;
  readonly options: FileOptions;
  declare readonly list: List;
  declare readonly optional: Optional;

  constructor(options: FileOptions = {}) {
    this.options = options;
  }
}

type Defaulted<O> = O extends { default: infer D } ? (undefined extends D ? false : true) : false;

function marker<K extends Exclude<MarkerKind, "file">>(kind: K) {
  return <S extends z.ZodType, const O extends FieldOptions<z.output<S>> = {}>(
    schema: S,
    options?: O,
  ): Param<K, S, Defaulted<O>> => new Param(kind, schema, options);
}

/**
 * The markers. Each takes a Zod schema and the seed's field options.
 *
 * @example
 * params: {
 *   id: p.Path(z.int()),
 *   page: p.Query(z.int(), { default: 1, ge: 1 }),
 *   token: p.Header(z.string(), { alias: "X-Token" }),
 *   body: p.Json(BindRequest),
 *   avatar: p.File(),
 * }
 */
export const p = {
  Path: marker("path"),
  Query: marker("query"),
  Header: marker("header"),
  Cookie: marker("cookie"),
  Json: marker("json"),
  Form: marker("form"),
  File<const O extends FileOptions = {}>(
    options?: O,
  ): FileParam<O extends { list: true } ? true : false, O extends { optional: true } ? true : false> {
    return new FileParam(options);
  },
  ResponseSpec<M extends z.ZodType>(options: ResponseSpecOptions<M>): ResponseSpec<M> {
    return new ResponseSpec(options);
  },
};
