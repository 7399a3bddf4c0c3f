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
 * A middleware's check of a WebSocket upgrade request, before its route and its handshake: it
 * refuses the upgrade by throwing (an `HttpError`, answered in the app's error format) or by
 * returning the response to answer instead of 101 (a redirect), and lets it go on by returning
 * nothing. The request is the upgrade's: `request.client`, its headers and path, no body.
 *
 * @example const guard: UpgradeGuard = (request) => { if (!request.header("x-api-key")) throw new HttpError(401, "Send X-API-Key"); };
 */
export type UpgradeGuard = (
  request: HttpRequest,
) => HttpResponse | undefined | Promise<HttpResponse | undefined>;

/**
 * Work around the endpoints of an app or a group: it may answer without calling `next` (a 401, a
 * cached answer), and may change or replace the response `next` gives back. What it throws is
 * answered by the app's exception handlers. `forRoute`, when present, is called once per route when
 * the app is built and gives the middleware that route runs (CORS answers preflights with the
 * methods of the path). WebSocket upgrades run no middleware: `guardUpgrade`, when present on one
 * of the app's middleware, is read once when the app is built and checks every upgrade request,
 * in the middleware's order, before its route is looked up (`trustedHost()`, `httpsRedirect()`).
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
  guardUpgrade?: UpgradeGuard;
}

/**
 * The upgrade guards of `middleware`, in its order, each called as its middleware's method (a guard
 * that keeps its state on its middleware reads it through `this`) and named as it is.
 *
 * @example const guards = upgradeGuardsOf([trustedHost({ hosts: ["example.com"] }), cors()]); // [trustedHost]
 */
export function upgradeGuardsOf(middleware: readonly Middleware[]): UpgradeGuard[] {
  const guards: UpgradeGuard[] = [];
  for (const layer of middleware) {
    const guard = layer.guardUpgrade;
    if (guard === undefined) continue;
    const asMethod: UpgradeGuard = (request) => guard.call(layer, request);
    guards.push(Object.defineProperty(asMethod, "name", { value: guard.name }));
  }
  return guards;
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
