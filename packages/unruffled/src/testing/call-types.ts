// The types of `client.call(endpoint, params)`: what a caller gives for each declared parameter, and
// what the endpoint documents that it answers. Read from one endpoint's declarations only, so an
// editor never walks the whole route table.
import type { z } from "zod";
import type { ParamDeclarations, Returns } from "../route/declare/endpoint.ts";
import type { DependsParam, FileParam, MarkerKind, Param } from "../route/declare/markers.ts";
import type { ModelJson, ModelWireInput } from "../route/declare/model-types.ts";
import type { ResponseSpec } from "../route/declare/response-spec.ts";
import type { TestFile } from "./multipart-body.ts";
import type { TestResponse } from "./test-response.ts";

/**
 * What a caller gives for one declaration: the schema's input type (a date also as its ISO string,
 * which the server converts), or files to upload (at least one for a required list, as the server
 * answers 422 for none). The common case (a `p.*` marker) is tested first: this type is computed
 * for every parameter of every call.
 */
export type ParamInput<D> =
  D extends Param<MarkerKind, infer S extends z.core.SomeType, boolean>
    ? ModelWireInput<S>
    : D extends FileParam<infer List, infer Optional>
      ? List extends true
        ? Optional extends true
          ? readonly TestFile[]
          : readonly [TestFile, ...TestFile[]]
        : TestFile
      : D extends z.core.SomeType
        ? ModelWireInput<D>
        : never;

/**
 * True when the request may leave the parameter out: it has a default, its schema allows none, or
 * it is a model read from the query, headers or cookies whose fields may all be left out (the
 * server then reads an empty model).
 */
type MayOmit<D> =
  D extends Param<infer K, infer S extends z.core.SomeType, infer HasDefault>
    ? HasDefault extends true
      ? true
      : undefined extends ModelWireInput<S>
        ? true
        : K extends "query" | "header" | "cookie"
          ? {} extends ModelWireInput<S>
            ? true
            : false
          : false
    : D extends FileParam<boolean, infer Optional>
      ? Optional
      : D extends z.core.SomeType
        ? undefined extends ModelWireInput<D>
          ? true
          : false
        : false;

/** A declaration not read from the request: a dependency's or a scheme's value, or a context value. */
type NotOnWire = { readonly kind: "depends" | "security" | "security-scopes" | "response" };

/**
 * `K` when the call must give declaration `D`: read on the wire, no default, and a schema that does
 * not accept `undefined`. Read per declaration, not per endpoint: a declaration's type (such as
 * `p.Path(z.int())`) recurs across endpoints, and a conditional type is computed once per argument.
 */
type RequiredKey<K, D> = D extends NotOnWire ? never : MayOmit<D> extends true ? never : K;

/**
 * The parameters a dependency declaration reads, `{}` for any other declaration, and for a
 * dependency typed `any` (as in `ParamDeclarations` itself, whose call side `EndpointDefinition`'s
 * `~call` names: without the guard its parameters were `ParamDeclarations` again, endlessly).
 */
type DependencyParamsOf<D> =
  D extends DependsParam<any, infer Dependency>
    ? 0 extends 1 & Dependency
      ? {}
      : Dependency extends { readonly params: infer Q extends ParamDeclarations }
        ? CallParams<Q>
        : {}
    : {};

/** The parameters the dependencies of `P` read, as one object type (`{}` when it has none). */
type DependencyParams<P> = Intersection<DependencyParamsOf<P[keyof P]>>;

type Intersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void
  ? I
  : never;

/** The names of the parameters a call must give (`RequiredKey` of each declaration). */
type RequiredKeys<P> = { [K in keyof P]-?: RequiredKey<K, P[K]> }[keyof P];

/**
 * The parameters of a call, keyed by parameter name, with those of the endpoint's dependencies;
 * those with defaults are optional. This type is computed at every call site, so it is built for
 * few instantiations: one mapped type over the declarations gives every parameter's type, optional
 * (a declaration not read on the wire, such as `p.Depends`, becomes `?: never`), and a second
 * requires the keys a call must give. Sorting the keys into two mapped types of typed members
 * instead cost a fifth more instantiations per call (bench:types, routes with a shared dependency).
 */
export type CallParams<P extends ParamDeclarations> = {
  [K in keyof P]?: ParamInput<P[K]>;
} & {
  [K in RequiredKeys<P>]: unknown;
} & DependencyParams<P>;

/** The bodies of the endpoint's `ResponseSpec` models in JSON form; `unknown` when it names a response class. */
export type DocumentedBody<Ret extends Returns> = Ret extends readonly ResponseSpec<infer M, any, any>[]
  ? ModelJson<M>
  : unknown;

/** The status of a `ResponseSpec` code: `"404"` → 404; `number` when the code is known only at run time. */
type StatusOf<K extends string> = K extends `${infer N extends number}` ? N : number;

/**
 * The answer one entry of `returns` documents: a `ResponseSpec`'s model in its JSON form at its
 * status (an event stream's model types its events, not `json()`), a response class's unknown body
 * at 200.
 */
type DeclaredAnswer<E> =
  E extends ResponseSpec<infer M, infer C, infer K>
    ? C extends "text/event-stream"
      ? TestResponse<never, StatusOf<K>, ModelJson<M>>
      : TestResponse<ModelJson<M>, StatusOf<K>, never>
    : TestResponse<unknown, 200, never>;

/**
 * The body of the default validation handler's 422 (`{"detail": [issue, …]}`), as JSON: an endpoint
 * that does not declare a 422 model reads it with `response.json<ValidationErrorBody>()`.
 */
export interface ValidationErrorBody {
  detail: Array<{ loc: Array<string | number>; msg: string; type: string; input?: unknown }>;
}

/**
 * What `call()` resolves to: one `TestResponse` per documented status, each with its model's JSON
 * form, so that `if (response.status === 404)` narrows `json()` to the 404 model; unnarrowed,
 * `json()` is the union of the documented models. A status the endpoint does not document (the
 * framework's 422, 401, 413, …) narrows `json()` to `never`: read it with `json<T>()`. A response
 * class alone documents no model: one `TestResponse` whose body is `unknown`. The entries are read
 * as `Ret[number]`: inferring them (`Ret extends readonly (infer E)[]`) resolved every member of
 * the `returns` tuple's array type, for each endpoint called (bench:types: a third of a call's symbols).
 */
export type CallResponse<Ret extends Returns> = Ret extends readonly unknown[]
  ? DeclaredAnswer<Ret[number]> | TestResponse<never, number, never>
  : TestResponse;

/**
 * What `call(endpoint)` without parameters asks of the endpoint's call side: nothing when
 * `undefined` may stand for its parameters (every one may be left out), else a member it lacks,
 * whose name the compiler's message quotes.
 */
export type OmittableParams<Params> = undefined extends Params
  ? unknown
  : { readonly "~this endpoint has required parameters: pass them as call()'s second argument": true };

/** The parameters argument: `undefined` too when every parameter may be left out. */
export type CallParamsArgument<P extends ParamDeclarations> =
  | CallParams<P>
  | ({} extends CallParams<P> ? undefined : never);

/**
 * An endpoint whose parameters and documented answers the client reads: only the members the call's
 * types read. Every `EndpointDefinition` is one; naming `EndpointDefinition` here instead made each
 * call site instantiate its handler's types a second time.
 */
export interface AnyEndpoint<P extends ParamDeclarations, Ret extends Returns> {
  readonly kind: "endpoint";
  readonly params?: P;
  readonly returns: Ret;
}

/**
 * An endpoint as `call(endpoint, params)` reads it: its call side, `EndpointDefinition`'s type-level
 * `~call` member, which gives the parameters (`CallParamsArgument`) and the answer (`CallResponse`)
 * as computed once for the endpoint. Inferring `P` and `Ret` here instead had each call site build
 * the parameters' mapped types again (bench:types: a fifth of a call's cost with four parameters and
 * a dependency).
 */
export interface CallableEndpoint<Params, Answer> {
  readonly kind: "endpoint";
  "~call"?(params: Params): Answer;
}
