import type { z } from "zod";
import type { HttpResponse } from "../../http/response.ts";

/** The options of `p.ResponseSpec`, named as in the seed. */
export interface ResponseSpecOptions<M extends z.core.SomeType = z.core.SomeType, C extends string = string> {
  /** The model of the body (required). */
  model: M;
  /** The status code documented, as a string (default `"200"`). */
  code?: string;
  /** The body's media type (default `application/json`); `text/event-stream` makes `model` each event's data. */
  content_type?: C;
  description?: string;
  /** Documented response headers: name → description, or null. */
  headers?: Record<string, string> | null;
}

/**
 * Documents one status code of an endpoint's answer (the seed's `ResponseSpec`), made by
 * `p.ResponseSpec({ model, code, description })`. `C` is its media type, as far as the types know
 * it: a JSON body's model and an event stream's are told apart by it.
 */
export class ResponseSpec<M extends z.core.SomeType = z.core.SomeType, C extends string = string> {
  readonly model: M;
  readonly code: string;
  readonly contentType: C;
  readonly description: string;
  readonly headers: Readonly<Record<string, string>> | null;

  constructor(options: ResponseSpecOptions<M, C>) {
    this.model = options.model;
    this.code = options.code ?? "200";
    this.contentType = options.content_type ?? ("application/json" as C);
    this.description = options.description ?? "";
    this.headers = options.headers ?? null;
  }
}

/** A response class named as `returns` when no model is documented (`returns: JsonResponse`). */
export type ResponseClass = abstract new (...args: any[]) => HttpResponse;
