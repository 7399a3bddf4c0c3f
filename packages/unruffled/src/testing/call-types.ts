// The types of `client.call(endpoint, params)`: what the endpoint documents that it answers (the
// parameters a call gives are route/declare/call-params.ts's). Read from one endpoint's declarations
// only, so an editor never walks the whole route table.
import type { ParamDeclarations, Returns } from "../route/declare/endpoint.ts";
import type { ModelJson } from "../route/declare/model-types.ts";
import type { ResponseSpec } from "../route/declare/response-spec.ts";
import type { TestResponse } from "./test-response.ts";

/** The bodies of the endpoint's `ResponseSpec` models in JSON form; `unknown` when it names a response class. */
export type DocumentedBody<Ret extends Returns> = Ret extends readonly ResponseSpec<infer M, any, any>[]
  ? ModelJson<M>
  : unknown;

/** The status of a `ResponseSpec` code: `"404"` → 404; `number` when the code is known only at run time. */
type StatusOf<K extends string> = K extends `${infer N extends number}` ? N : number;

/**
 * The answer one entry of `returns` documents: a `ResponseSpec`'s model in its JSON form at its
 * status (an event stream's model types its events, not `json()`), a response class's unknown body
 * at 200. The spec's parts are read as its members, not inferred (`ResponseSpec<infer M, infer C,
 * infer K>`): bench:types, 5 % fewer allocations a call.
 */
type DeclaredAnswer<E> = E extends ResponseSpec
  ? E["contentType"] extends "text/event-stream"
    ? TestResponse<never, StatusOf<E["code"]>, ModelJson<E["model"]>>
    : TestResponse<ModelJson<E["model"]>, StatusOf<E["code"]>, never>
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
 * An endpoint as `call(endpoint, params)` reads it: `EndpointDefinition`'s type-level `~call`
 * member, the call's parameters (`CallParamsArgument`, computed once for the endpoint), and its
 * `returns` (the answer is `CallResponse<Ret>`). Inferring `P` here instead had each call site
 * build the parameters' mapped types again (bench:types: a fifth of a call's cost with four
 * parameters and a dependency).
 */
export interface CallableEndpoint<Params, Ret extends Returns> {
  readonly kind: "endpoint";
  readonly "~call"?: Params;
  readonly returns: Ret;
}
