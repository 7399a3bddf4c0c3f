// What a handler may return, read from its endpoint's `returns`: the types that make a body the
// declared models do not accept, or a status the endpoint does not declare, fail to compile.
import type { z } from "zod";
import type { EventStreamResponse } from "../../http/event-stream-response.ts";
import type { HttpResponse, JsonAnswer, JsonResponse, StatusKnown } from "../../http/response.ts";
import type { ModelInput } from "./model-types.ts";
import type { ResponseClass, ResponseSpec } from "./response-spec.ts";

/** The bodies the endpoint's `ResponseSpec` models accept: their input, so defaulted fields may be left out. */
export type DeclaredBody<Ret> =
  Entry<Ret> extends infer S ? (S extends ResponseSpec<infer M, any, any> ? ModelInput<M> : never) : never;

type EventStreamType = "text/event-stream";

type Entry<Ret> = Ret extends readonly (infer E)[] ? E : never;

/** The `ResponseSpec`s of a JSON body (not an event stream; a media type the types cannot see counts). */
type JsonSpec<Ret> =
  Entry<Ret> extends infer S
    ? S extends ResponseSpec<any, infer C, any>
      ? [C] extends [EventStreamType]
        ? never
        : string extends C
          ? S
          : C extends "application/json" | `${string}+json`
            ? S
            : never
      : never
    : never;

/** The JSON bodies the endpoint declares: the models of its `ResponseSpec`s that are not event streams. */
export type DeclaredJsonBody<Ret> =
  JsonSpec<Ret> extends ResponseSpec<infer M, any, any> ? ModelInput<M> : never;

/** The data of the events the endpoint declares: the models of its `text/event-stream` `ResponseSpec`s. */
export type DeclaredEventData<Ret> = Ret extends readonly (infer S)[]
  ? S extends ResponseSpec<infer M, infer C, any>
    ? EventStreamType extends C
      ? ModelInput<M>
      : never
    : never
  : never;

/**
 * The success codes the endpoint declares (`"201"`), and `"200"` for a response class; `string` when
 * one of its codes is known only at run time.
 */
type SuccessCode<Ret> =
  Entry<Ret> extends infer S
    ? S extends ResponseSpec<any, any, infer K>
      ? string extends K
        ? string
        : K extends `2${string}`
          ? K
          : never
      : S extends ResponseClass
        ? "200"
        : never
    : never;

type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never;

/**
 * The code of an answer built without a status, as at run time: the endpoint's one success code,
 * else `"200"`; `string` when the types cannot tell.
 */
type DefaultCode<Ret> = [SuccessCode<Ret>] extends [never]
  ? "200"
  : string extends SuccessCode<Ret>
    ? string
    : IsUnion<SuccessCode<Ret>> extends true
      ? "200"
      : SuccessCode<Ret>;

type StatusOf<K extends string> = K extends `${infer N extends number}` ? N : number;

/**
 * The JSON answers one `ResponseSpec` admits: its model's body with its status, and without a status
 * when its code is the endpoint's default. One `JsonAnswer` whose status is a union, not a union of
 * answers: a handler's answer is compared with each answer of the union.
 */
type SpecJsonAnswer<S, Default extends string> =
  S extends ResponseSpec<infer M, any, infer K>
    ? JsonAnswer<ModelInput<M>, StatusKnown<StatusOf<K>> | (K extends Default ? undefined : never)>
    : never;

/** The status of an answer that may take any JSON model's body: one known only at run time, or none. */
type AnyModelStatus<Default extends string> = "other" | (string extends Default ? undefined : never);

/**
 * The JSON answers the endpoint declares; with a status known only at run time, any JSON model's
 * body. With one JSON model, a single answer: its body with any of the statuses it admits.
 */
type DeclaredJsonAnswer<Ret> = [JsonSpec<Ret>] extends [never]
  ? never
  : IsUnion<JsonSpec<Ret>> extends true
    ?
        | SpecJsonAnswer<JsonSpec<Ret>, DefaultCode<Ret>>
        | JsonAnswer<DeclaredJsonBody<Ret>, AnyModelStatus<DefaultCode<Ret>>>
    : JsonSpec<Ret> extends ResponseSpec<infer M, any, infer K>
      ? JsonAnswer<
          ModelInput<M>,
          | StatusKnown<StatusOf<K>>
          | AnyModelStatus<DefaultCode<Ret>>
          | (K extends DefaultCode<Ret> ? undefined : never)
        >
      : never;

/** A media type that is neither JSON nor an event stream (`text/plain`, `image/png`), or one the types cannot see. */
type OtherMediaSpec<Ret> =
  Entry<Ret> extends infer S
    ? S extends ResponseSpec<any, infer C, any>
      ? string extends C
        ? S
        : C extends EventStreamType | "application/json" | `${string}+json`
          ? never
          : S
      : never
    : never;

/**
 * The answers a response class in the list admits: any instance of it (a `JsonResponse` with any
 * body and status; `HttpResponse` admits every response).
 */
type ClassAnswer<Ret> =
  Entry<Ret> extends infer E
    ? E extends typeof JsonResponse
      ? JsonResponse<any, any>
      : E extends ResponseClass
        ? InstanceType<E>
        : never
    : never;

/** A response that is neither JSON nor an event stream (text, HTML, bytes): no model to match. */
export type UnmodelledResponse = HttpResponse & { readonly data?: never; readonly events?: never };

/**
 * The answers of the common endpoint, one JSON model at one code (`[p.ResponseSpec({ model })]`):
 * what `AnyHandlerResponse` gives for it, read without walking the list for response classes, event
 * streams and other media types. Without a status, the answer takes the code when it is a success
 * code (the endpoint's only one), or when the types cannot tell it.
 */
type SingleJsonAnswer<M extends z.core.SomeType, K extends string> =
  | JsonAnswer<
      ModelInput<M>,
      | StatusKnown<StatusOf<K>>
      | "other"
      | (string extends K ? undefined : K extends `2${string}` ? undefined : never)
    >
  | EventStreamResponse<never>;

/**
 * What a handler may return. With `ResponseSpec` models: a `JsonResponse` whose body matches the
 * model of its status (a success status the endpoint does not declare does not compile; one known
 * only at run time, or an error status, takes any JSON model's body; none given means the endpoint's
 * one declared success status, else 200, as at run time), an `EventStreamResponse` whose events'
 * data matches one of the event-stream models (extra fields compile, and are left out when sent),
 * a response of another kind only when a `ResponseSpec` declares another media type, and any
 * instance of a response class in the list. With a response class alone (`returns: JsonResponse`):
 * any response. A media type the types cannot see (a
 * `string`) counts as every kind.
 *
 * @example HandlerResponse<[ResponseSpec<typeof Item, "application/json", "201">]> // JsonAnswer<Item, 201 | "other" | undefined>
 */
export type HandlerResponse<Ret> = Ret extends readonly [
  ResponseSpec<infer M extends z.core.SomeType, infer C, infer K extends string>,
]
  ? [C] extends ["application/json"]
    ? IsUnion<K> extends true
      ? AnyHandlerResponse<Ret>
      : SingleJsonAnswer<M, K>
    : AnyHandlerResponse<Ret>
  : AnyHandlerResponse<Ret>;

/** What a handler may return, read from any list (`HandlerResponse`). */
type AnyHandlerResponse<Ret> = Ret extends readonly unknown[]
  ?
      | ClassAnswer<Ret>
      | DeclaredJsonAnswer<Ret>
      | EventStreamResponse<DeclaredEventData<Ret>>
      | ([OtherMediaSpec<Ret>] extends [never] ? never : UnmodelledResponse)
  : HttpResponse;
