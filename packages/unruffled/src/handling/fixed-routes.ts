import type { HttpRequest } from "../http/request.ts";
import type { HttpResponse } from "../http/response.ts";

/**
 * A route at a path without placeholders, for one method, with the answer to a request that a
 * runtime's server has already matched to it (`Bun.serve`'s own routes). Such a server reads the
 * path natively, so the request skips the app's router and need not read its URL at all (on Bun,
 * a new string per read) unless something asks for it. What the request gets is what
 * `app.handle(request, false)` gives it: its id, its middleware, its parameters, its answer.
 *
 * @example for (const route of requests.fixedRoutes()) routes[route.path] = { [route.method]: … };
 */
export interface FixedRoute {
  readonly path: string;
  readonly method: string;
  /**
   * True when the route reads a JSON body before anything else could answer (no middleware,
   * dependencies or rate limit): a server may read the body first, as text, and hold it in the
   * request's body source, so that the route answers without waiting again (see answerFixedJson).
   */
  readonly readsJsonFirst: boolean;
  /** For such a route, whether this request's body will be read ahead (a JSON media type, no content coding). */
  readsBodyOf(request: HttpRequest): boolean;
  answer(request: HttpRequest): HttpResponse | Promise<HttpResponse>;
  /**
   * `answer()` in two steps, for a server that reads the body in between: `begin` gives the request
   * its id and starts its access-log clock (the read counts in its duration, as in `answer()`).
   */
  begin(request: HttpRequest): number;
  answerBegun(request: HttpRequest, started: number): HttpResponse | Promise<HttpResponse>;
}
