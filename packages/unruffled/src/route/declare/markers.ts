import type { z } from "zod";
import { ResponseSpec, type ResponseSpecOptions } from "./response-spec.ts";
import type { SecurityScheme } from "./security-scheme.ts";

/** Where a marker reads its value from. */
export type MarkerKind = "path" | "query" | "header" | "cookie" | "json" | "form" | "file";

/**
 * One entry of `params`: a marker, a bare Zod schema whose source is detected (rule 9), or a value a
 * dependency or an authentication scheme gives (`p.Depends`, `p.Security`). Schemas are bound by Zod's
 * core `SomeType`, as Zod's own generics are: checking a model against the full `z.ZodType` class
 * compared it member by member, for every parameter and answer of every endpoint.
 */
export type ParamDeclaration =
  | Param<MarkerKind, z.core.SomeType, boolean>
  | FileParam
  | z.core.SomeType
  | DependsParam<any, any>
  | SecurityParam<any>
  | ContextParam;

export type ParamDeclarations = Record<string, ParamDeclaration>;

/**
 * The seed's `FieldInfo` keyword arguments. Constraints are enforced by Zod and appear in the
 * OpenAPI schema, exactly as if they were written on the Zod schema.
 */
export interface FieldOptions<T = unknown> {
  /** The value when the request does not carry the parameter; it makes the parameter optional. */
  default?: DefaultValue<T>;
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

/**
 * The options of `p.Json`: the field options, and `embed`, FastAPI's `Body(embed=True)`.
 *
 * @example item: p.Json(Item, { embed: true }) // reads {"item": {…}} rather than the item's fields
 */
export interface JsonOptions<T = unknown> extends FieldOptions<T> {
  /**
   * Read the value from the body's key named after the parameter (its alias if given), as a scalar
   * is, rather than spreading a model's fields over the body's top level or taking the whole body.
   */
  embed?: boolean;
}

/**
 * A default as written in a declaration: the markers read their options as `const`, so `[]` arrives
 * as `readonly []` and must count as a default of a list (FastAPI's `tags: list[str] = []`).
 */
export type DefaultValue<T> = T extends readonly (infer E)[]
  ? readonly DefaultValue<E>[]
  : T extends object
    ? { readonly [K in keyof T]: DefaultValue<T[K]> }
    : T;

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

/** What `p.Depends` takes: a dependency made by `dependency()`, resolving to `T`. */
export interface DependencyLike<T = unknown> {
  readonly kind: "dependency";
  /** Its own parameter declarations. */
  readonly params: object;
  /** Type-level only: what the dependency resolves to. */
  readonly resolvesTo?: T;
}

/**
 * A parameter whose value a dependency gives, resolved once per request (`p.Depends`). `D` is the
 * dependency, so that tests can type its parameters too.
 */
export class DependsParam<T = unknown, D extends DependencyLike = DependencyLike> {
  readonly kind = "depends" as const;
  readonly dependency: D;
  /** Scopes asked for by `p.Security(dependency, { scopes })`, for the dependency's branch. */
  readonly scopes: readonly string[];
  /** Type-level only: what the handler receives. */
  declare readonly value: T;

  constructor(dependency: D, scopes: readonly string[] = []) {
    this.dependency = dependency;
    this.scopes = scopes;
  }
}

/**
 * A value the framework gives a dependency about its request: the scopes asked for above it
 * (`p.SecurityScopes()`), or the draft of the answer's headers, cookies and status (`p.Response()`).
 */
export class ContextParam<K extends "security-scopes" | "response" = "security-scopes" | "response"> {
  readonly kind: K;

  constructor(kind: K) {
    this.kind = kind;
  }
}

/** Options of `p.Security`. */
export interface SecurityOptions {
  /** Scopes the principal must hold; one missing is a 403. */
  scopes?: readonly string[];
  /** Without credentials (or with credentials that fail), the value is `undefined` instead of a 401. */
  optional?: boolean;
}

/** A parameter whose value is the principal an authentication scheme verified (`p.Security`). */
export class SecurityParam<T = unknown> {
  readonly kind = "security" as const;
  readonly scheme: SecurityScheme;
  readonly scopes: readonly string[];
  readonly optional: boolean;
  /** Type-level only: what the handler receives. */
  declare readonly value: T;

  constructor(scheme: SecurityScheme, options: SecurityOptions = {}) {
    this.scheme = scheme;
    this.scopes = options.scopes ?? [];
    this.optional = options.optional === true;
  }
}

function security(target: unknown, options?: SecurityOptions): SecurityParam | DependsParam {
  if ((target as DependencyLike | null)?.kind === "dependency") {
    return new DependsParam(target as DependencyLike, options?.scopes ?? []);
  }
  return new SecurityParam(target as SecurityScheme, options);
}

type Defaulted<O> = O extends { default: infer D } ? (undefined extends D ? false : true) : false;

function marker<K extends Exclude<MarkerKind, "file">>(kind: K) {
  return <S extends z.core.SomeType, const O extends FieldOptions<z.output<S>> = {}>(
    schema: S,
    options?: O,
  ): Param<K, S, Defaulted<O>> => new Param(kind, schema, options);
}

/**
 * The markers' signatures, every one a method: TypeScript narrows a reference to an object's
 * property (`p.Path`) by walking back through the module's earlier statements, and never a
 * reference to a method, which a module of many routes otherwise paid for at every marker. The six
 * schema markers are written out one by one because a mapped type would make them properties again.
 */
export interface Markers {
  Path<S extends z.core.SomeType, const O extends FieldOptions<z.output<S>> = {}>(
    schema: S,
    options?: O,
  ): Param<"path", S, Defaulted<O>>;
  Query<S extends z.core.SomeType, const O extends FieldOptions<z.output<S>> = {}>(
    schema: S,
    options?: O,
  ): Param<"query", S, Defaulted<O>>;
  Header<S extends z.core.SomeType, const O extends FieldOptions<z.output<S>> = {}>(
    schema: S,
    options?: O,
  ): Param<"header", S, Defaulted<O>>;
  Cookie<S extends z.core.SomeType, const O extends FieldOptions<z.output<S>> = {}>(
    schema: S,
    options?: O,
  ): Param<"cookie", S, Defaulted<O>>;
  Json<S extends z.core.SomeType, const O extends JsonOptions<z.output<S>> = {}>(
    schema: S,
    options?: O,
  ): Param<"json", S, Defaulted<O>>;
  Form<S extends z.core.SomeType, const O extends FieldOptions<z.output<S>> = {}>(
    schema: S,
    options?: O,
  ): Param<"form", S, Defaulted<O>>;
  File<const O extends FileOptions = {}>(
    options?: O,
  ): FileParam<O extends { list: true } ? true : false, O extends { optional: true } ? true : false>;
  /**
   * The value of a dependency, resolved once per request; its own parameters are read, documented
   * and validated with the endpoint's.
   */
  Depends<D extends DependencyLike<any>>(
    dependency: D,
  ): DependsParam<D extends DependencyLike<infer T> ? T : never, D>;
  /**
   * The principal of an authentication scheme: 401 without valid credentials, 403 without a scope.
   * Given a dependency, its value, with the scopes added for its branch (FastAPI's
   * `Security(get_current_user, scopes=[…])`): the schemes and `p.SecurityScopes()` under it see them.
   */
  Security<D extends DependencyLike<any>>(
    dependency: D,
    options?: { scopes?: readonly string[] },
  ): DependsParam<D extends DependencyLike<infer T> ? T : never, D>;
  // Last, so that `Parameters<typeof p.Security>` reads the scheme's form.
  Security<Principal, const O extends SecurityOptions = {}>(
    scheme: SecurityScheme<Principal>,
    options?: O,
  ): SecurityParam<O extends { optional: true } ? Principal | undefined : Principal>;
  /** In a dependency's params: the scopes asked for above it, on its branch (a `SecurityScopes`). */
  SecurityScopes(): ContextParam<"security-scopes">;
  /**
   * In a dependency's params: a `ResponseDraft` whose headers, cookies and status are added to the
   * endpoint's answer (FastAPI's injected `Response`).
   */
  Response(): ContextParam<"response">;
  // NoInfer: C and K come from content_type and code alone (else their defaults), never from where the spec is used.
  ResponseSpec<
    M extends z.core.SomeType,
    const C extends string = "application/json",
    const K extends string = "200",
  >(options: ResponseSpecOptions<M, C, K>): ResponseSpec<M, NoInfer<C>, NoInfer<K>>;
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
export const p: Markers = {
  Path: marker("path"),
  Query: marker("query"),
  Header: marker("header"),
  Cookie: marker("cookie"),
  Json: marker("json"),
  Form: marker("form"),
  File: (options) => new FileParam(options),
  Depends: (dependency) => new DependsParam(dependency),
  Security: security as Markers["Security"],
  SecurityScopes: () => new ContextParam("security-scopes"),
  Response: () => new ContextParam("response"),
  ResponseSpec: (options) => new ResponseSpec(options),
};
