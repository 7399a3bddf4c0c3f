import { ValueError } from "../errors.ts";
import type { HttpRequest } from "./request.ts";
import type { HttpResponse } from "./response.ts";

/**
 * The rest of the chain, down to the endpoint: `next()` goes on with the request the middleware was
 * given, `next(request)` with the one passed. It never throws; what fails further in comes back as
 * the exception handlers' answer.
 */
export type Next = (request?: HttpRequest) => HttpResponse | Promise<HttpResponse>;

/** The route a middleware is composed for, when the app is built. */
export interface MiddlewareRoute {
  /** The route's path pattern (`/students/{id}`); undefined for the chain that answers unknown paths. */
  path: string | undefined;
  /** The methods the path answers (HEAD wherever GET is); none for an unknown path. */
  methods: readonly string[];
}

/**
 * Work around the endpoints of an app or a group: it may answer without calling `next` (a 401, a
 * cached answer), and may change or replace the response `next` gives back. What it throws is
 * answered by the app's exception handlers. `forRoute`, when present, is called once per route when
 * the app is built and gives the middleware that route runs (CORS answers preflights with the
 * methods of the path).
 *
 * @example
 * const timing: Middleware = async (request, next) => {
 *   const started = performance.now();
 *   const response = await next(request);
 *   response.headers["server-timing"] = `app;dur=${(performance.now() - started).toFixed(1)}`;
 *   return response;
 * };
 */
export interface Middleware {
  (request: HttpRequest, next: Next): HttpResponse | Promise<HttpResponse>;
  forRoute?: (route: MiddlewareRoute) => Middleware;
}

/**
 * The middleware list given at `where`, checked when the app is built: a list of functions.
 *
 * @example checkedMiddleware(options.middleware, "createApp({ middleware })")
 */
export function checkedMiddleware(middleware: unknown, where: string): readonly Middleware[] {
  if (middleware === undefined) return [];
  if (!Array.isArray(middleware) || !middleware.every((item) => typeof item === "function")) {
    throw new ValueError(`${where}: middleware must be a list of middleware functions such as [cors(...)].`);
  }
  return middleware;
}
