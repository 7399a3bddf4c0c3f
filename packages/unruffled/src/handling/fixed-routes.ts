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
  answer(request: HttpRequest): HttpResponse | Promise<HttpResponse>;
}
