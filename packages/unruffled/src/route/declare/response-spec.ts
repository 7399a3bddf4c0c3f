import type { z } from "zod";
import type { HttpResponse } from "../../http/response.ts";

/** What a `ResponseSpec` leaves out of its answers (FastAPI's `response_model_exclude_*`). */
export interface Omissions {
  /** Leave out an object's fields whose value is `null` (`exclude_none`). */
  readonly none: boolean;
  /** Leave out an object's fields whose value equals their `.default()` (`exclude_defaults`). */
  readonly defaults: boolean;
}

export const NO_OMISSIONS: Omissions = Object.freeze({ none: false, defaults: false });

/** The options of `p.ResponseSpec`, named as in the seed. */
export interface ResponseSpecOptions<
  M extends z.core.SomeType = z.core.SomeType,
  C extends string = string,
  K extends string = string,
> {
  /** The model of the body (required). */
  model: M;
  /** The status code documented, as a string (default `"200"`). */
  code?: K;
  /** The body's media type (default `application/json`); `text/event-stream` makes `model` each event's data. */
  content_type?: C;
  description?: string;
  /** Documented response headers: name → description, or null. */
  headers?: Record<string, string> | null;
  /** Leave out the fields whose value is `null`, at every depth (FastAPI's `response_model_exclude_none`). */
  exclude_none?: boolean;
  /** Leave out the fields whose value equals their `.default()`, at every depth (`response_model_exclude_defaults`). */
  exclude_defaults?: boolean;
}

/**
 * Documents one status code of an endpoint's answer (the seed's `ResponseSpec`), made by
 * `p.ResponseSpec({ model, code, description })`. `C` is its media type and `K` its status code,
 * as far as the types know them: a JSON body's model and an event stream's are told apart by `C`,
 * and an answer's status picks its model by `K`.
 */
export class ResponseSpec<
  M extends z.core.SomeType = z.core.SomeType,
  C extends string = string,
  K extends string = string,
> {
  readonly model: M;
  readonly code: K;
  readonly contentType: C;
  readonly description: string;
  readonly headers: Readonly<Record<string, string>> | null;
  /** What the answers leave out: null fields (`exclude_none`), fields equal to their default (`exclude_defaults`). */
  readonly omissions: Omissions;

  constructor(options: ResponseSpecOptions<M, C, K>) {
    this.model = options.model;
    this.code = options.code ?? ("200" as K);
    this.contentType = options.content_type ?? ("application/json" as C);
    this.description = options.description ?? "";
    this.headers = options.headers ?? null;
    this.omissions =
      options.exclude_none === true || options.exclude_defaults === true
        ? { none: options.exclude_none === true, defaults: options.exclude_defaults === true }
        : NO_OMISSIONS;
  }
}

/** A response class named as `returns` when no model is documented (`returns: JsonResponse`). */
export type ResponseClass = abstract new (...args: any[]) => HttpResponse;
