// What a handler may return, read from its endpoint's `returns`: the types that make a body the
// declared models do not accept fail to compile.
import type { z } from "zod";
import type { EventStreamResponse } from "../http/event-stream-response.ts";
import type { HttpResponse, JsonResponse } from "../http/response.ts";
import type { ResponseSpec } from "./response-spec.ts";

/** The bodies the endpoint's `ResponseSpec` models accept: their input, so defaulted fields may be left out. */
export type DeclaredBody<Ret> = Ret extends readonly ResponseSpec<infer M>[] ? z.input<M> : never;

/** A response that is neither JSON nor an event stream (text, HTML, bytes): no model to match. */
export type UnmodelledResponse = HttpResponse & { readonly data?: never; readonly events?: never };

/**
 * What a handler may return. With `ResponseSpec` models: a `JsonResponse` or an `EventStreamResponse`
 * whose body matches one of them (extra fields compile, and are left out when sent), or a response
 * of another kind. With a response class (`returns: JsonResponse`): any response.
 *
 * @example HandlerResponse<[ResponseSpec<typeof Item>]> // JsonResponse<Item> | EventStreamResponse<Item> | UnmodelledResponse
 */
export type HandlerResponse<Ret> = Ret extends readonly ResponseSpec[]
  ? JsonResponse<DeclaredBody<Ret>> | EventStreamResponse<DeclaredBody<Ret>> | UnmodelledResponse
  : HttpResponse;
