import type { z } from "zod";
import type { HttpRequest } from "../http/request.ts";
import type { RouteLimiter } from "../rate-limit/route-limiter.ts";
import type { DependencyScopeName, ResolveStyle } from "./declare/dependency.ts";
import type { EndpointDefinition } from "./declare/endpoint.ts";
import type { FieldOptions, FileOptions, MarkerKind } from "./declare/markers.ts";
import type { ResponseSpec } from "./declare/response-spec.ts";
import type { SecurityScheme, SecurityScopes } from "./declare/security-scheme.ts";
import type { DeclaredAnswers } from "./serializer/declared-answers.ts";
import type { Coercer } from "./wire/coerce.ts";
import type { DateReader } from "./wire/json-dates.ts";
import type { QueryReader } from "./wire/query-reader.ts";

/** Where a value is read; `body` covers JSON, forms and files, as in the `loc` of validation errors. */
export type Location = "path" | "query" | "header" | "cookie" | "body";

export const LOCATIONS: readonly Location[] = ["path", "query", "header", "cookie", "body"];

/** How the body is read, when an endpoint has body parameters. */
export type BodyFormat = "json" | "form" | "multipart";

/** One name read on the wire: a scalar parameter, or one field of a model parameter. */
export interface WireField {
  /** The field's key in the model, or `null` for a scalar or list parameter. */
  key: string | null;
  /** The name in the request: alias, mapped header name (lower case), or the key itself. */
  wireName: string;
  /** The name as documented (a header keeps its usual capitalisation when aliased). */
  documentedName: string;
  list: boolean;
  coerce: Coercer | undefined;
  /** The field's own schema (for a scalar parameter, the parameter's schema). */
  schema: z.ZodType;
  required: boolean;
}

/** A parameter after analysis: everything the request path, the document and the errors need. */
export interface ParamDescription {
  /** The name it is declared under (the endpoint's, or its dependency's). */
  name: string;
  /** Its key in the validated values: the name, unless a dependency's parameter needed another. */
  key: string;
  /** Who declares it, for messages: `dependency "paging"`, or undefined for the endpoint itself. */
  owner: string | undefined;
  marker: MarkerKind;
  location: Location;
  /** True when the source came from auto-detection (a bare Zod schema). */
  detected: boolean;
  shape: "scalar" | "list" | "model" | "file" | "file-list";
  /** The schema that validates the gathered value, with the marker's options applied. */
  schema: z.ZodType;
  required: boolean;
  fields: WireField[];
  options: FieldOptions | FileOptions;
  /** A JSON model alone in the body is filled from the whole body, so its errors point at `body`. */
  wholeBody: boolean;
  /** For files: the size limit of one file of this parameter. */
  fileSizeLimit: number | undefined;
  /** For a JSON parameter whose schema holds dates: reads their ISO strings into Dates. */
  readDates?: DateReader | undefined;
  /**
   * For a JSON parameter whose schema takes some value unchecked (`z.unknown()`, `z.any()`, a loose
   * model's extra keys): its validated value is walked for a number `JSON.parse` made infinite (`1e400`).
   */
  uncheckedNumbers?: boolean | undefined;
  /**
   * A form model, or a JSON model that shares the body, whose schema accepts undefined (`.optional()`,
   * a default): undefined when none of its fields is sent, rather than an empty object.
   */
  absentWhenEmpty?: boolean | undefined;
  /**
   * For the first strict model (`z.strictObject`) of the query, the headers, the cookies or a body it
   * shares with other parameters (or whose fields it renames): the names of its source that are not
   * extra (those its location's parameters read, and a header field's key when it has no alias). Any
   * other key sent is refused, one issue a key: handed to the model, or, spelt as one of its fields'
   * keys (which Zod would take for that field), refused beside it. Undefined for every other parameter.
   */
  knownNames?: ReadonlySet<string> | undefined;
}

/** Where an argument of a dependency or of the handler comes from. */
export type ArgumentSource =
  /** A validated parameter, by its key. */
  | { name: string; key: string; node?: undefined; context?: undefined }
  /** The value of a dependency, by its place in `EndpointDescription.dependencies`. */
  | { name: string; node: number; key?: undefined; context?: undefined }
  /** What the framework gives: the scopes asked for on the branch, or the request's `ResponseDraft`. */
  | { name: string; context: SecurityScopes | "response"; key?: undefined; node?: undefined };

/**
 * A dependency, or an authentication scheme, after analysis: resolved once per request (unless it
 * opted out of the cache), in the order of `EndpointDescription.dependencies`.
 */
export interface DependencyDescription {
  /** `dependency "paging"` or `security scheme "bearerAuth"`, for messages. */
  label: string;
  /** Schemes authenticate before the parameters are read; dependencies resolve after validation. */
  phase: "authenticate" | "resolve";
  style: ResolveStyle;
  /** When a generator's clean-up runs: before the answer (`"function"`) or after it. */
  scope: DependencyScopeName;
  /** Its arguments, by name. */
  args: readonly ArgumentSource[];
  run(request: HttpRequest, args: Record<string, unknown>): unknown;
}

/** An authentication scheme an endpoint needs, with every scope its uses ask for. */
export interface SecurityRequirement {
  scheme: SecurityScheme;
  scopes: string[];
  /** The same scopes, as the scheme's `verify` gets them; set once the graph is built. */
  granted: SecurityScopes;
  /** True when every use of the scheme is optional: the operation is then also open. */
  optional: boolean;
}

/**
 * An endpoint analysed once, when its route is built. The request path, the OpenAPI generator and
 * the error messages all read this, and nothing re-reads the declaration.
 */
export interface EndpointDescription {
  endpoint: EndpointDefinition;
  /** `endpoint "list_students" (GET /api/enroll/student-list)`, for messages. */
  label: string;
  /** Every parameter read on the wire: the endpoint's own and its dependencies', flattened. */
  params: ParamDescription[];
  /** The dependencies and schemes to resolve, each after those it uses; undefined when none. */
  dependencies: readonly DependencyDescription[] | undefined;
  /** The handler's values, by name; undefined when the validated values are them as they are. */
  handlerArgs: readonly ArgumentSource[] | undefined;
  /** The authentication schemes the endpoint needs (its own, its route's, its dependencies'). */
  security: readonly SecurityRequirement[];
  /** The parameters of each location, in declaration order. */
  byLocation: Record<Location, ParamDescription[]>;
  /** Reads the declared query names from the raw query string; `undefined` without query parameters. */
  queryReader: QueryReader | undefined;
  bodyFormat: BodyFormat | undefined;
  /**
   * True when a JSON body parameter may pass on a number no number schema checked (its
   * `uncheckedNumbers`): only then is a validated body walked for one past a double's range.
   */
  uncheckedNumbers: boolean;
  /** The size limit of the files of each file field, by wire name (multipart bodies only). */
  fileSizeLimits: ReadonlyMap<string, number>;
  /** One schema for all sources, by parameter key (`{ page, size, body }`), compiled by Zod. */
  validator: z.ZodType | undefined;
  /** One `ResponseSpec` per status code; empty when `returns` names a response class only. */
  responses: readonly ResponseSpec[];
  /** The response classes named by `returns`, alone or in its list; each documents the 200 answer. */
  responseClasses: readonly Function[];
  /**
   * How the answers are written through the declared models (each status's serializer, the default
   * status, undeclared success statuses); undefined when `returns` names a response class only.
   */
  answers: DeclaredAnswers | undefined;
  /** The route's rate-limit policies, compiled; undefined for an unlimited route (set by `buildRoutes`). */
  rateLimiter?: RouteLimiter | undefined;
}
