// What a handler may return, read from its endpoint's `returns`: the types that make a body the
// declared models do not accept fail to compile.
import type { z } from "zod";
import type { EventStreamResponse } from "../../http/event-stream-response.ts";
import type { HttpResponse, JsonResponse } from "../../http/response.ts";
import type { ResponseSpec } from "./response-spec.ts";

/** The bodies the endpoint's `ResponseSpec` models accept: their input, so defaulted fields may be left out. */
export type DeclaredBody<Ret> = Ret extends readonly ResponseSpec<infer M>[] ? z.input<M> : never;

type EventStreamType = "text/event-stream";

/** The JSON bodies the endpoint declares: the models of its `ResponseSpec`s that are not event streams. */
export type DeclaredJsonBody<Ret> = Ret extends readonly (infer S)[]
  ? S extends ResponseSpec<infer M, infer C>
    ? [C] extends [EventStreamType]
      ? never
      : z.input<M>
    : never
  : never;

/** The data of the events the endpoint declares: the models of its `text/event-stream` `ResponseSpec`s. */
export type DeclaredEventData<Ret> = Ret extends readonly (infer S)[]
  ? S extends ResponseSpec<infer M, infer C>
    ? EventStreamType extends C
      ? z.input<M>
      : never
    : never
  : never;

/** A response that is neither JSON nor an event stream (text, HTML, bytes): no model to match. */
export type UnmodelledResponse = HttpResponse & { readonly data?: never; readonly events?: never };

/**
 * What a handler may return. With `ResponseSpec` models: a `JsonResponse` whose body matches one of
 * the JSON models, an `EventStreamResponse` whose events' data matches one of the event-stream
 * models (extra fields compile, and are left out when sent), or a response of another kind. With a
 * response class (`returns: JsonResponse`): any response. A media type the types cannot see (a
 * `string`) counts as both.
 *
 * @example HandlerResponse<[ResponseSpec<typeof Item, "application/json">]> // JsonResponse<Item> | UnmodelledResponse
 */
export type HandlerResponse<Ret> = Ret extends readonly ResponseSpec[]
  ? JsonResponse<DeclaredJsonBody<Ret>> | EventStreamResponse<DeclaredEventData<Ret>> | UnmodelledResponse
  : HttpResponse;
