import type { FixedRoute } from "../../handling/fixed-routes.ts";
import {
  answerFixed,
  answerFixedJson,
  type FetchTarget,
  type StreamsInFlight,
} from "../fetch/fetch-adapter.ts";

type BunHandler = (request: Request, server: unknown) => Response | undefined | Promise<Response | undefined>;

/** `Bun.serve`'s `routes`: handlers by path, then by method. */
export type BunRoutes = Record<string, Record<string, BunHandler>>;

/** What the Bun routes need of the app: its routes at paths without placeholders. */
export interface FixedRoutesTarget extends FetchTarget {
  fixedRoutes(): FixedRoute[];
}

// The methods handed to Bun's router; any other (HEAD, OPTIONS, an extension method) reaches `fetch`.
const BUN_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);
// A path Bun's router reads as the app's router does: no `:name` or `*` (Bun's placeholders), no
// percent-encoding or characters a client would send encoded, no trailing slash.
const PLAIN_PATH = /^(\/[A-Za-z0-9._~!$&'()+,;=@-]+)+$|^\/$/;

/**
 * The app's routes at fixed paths as `Bun.serve({ routes })`: Bun matches the path natively, so
 * such a request skips the app's router and its URL is never made into a string unless something
 * reads it (about 5–9 % of a small answer's CPU on Bun, measured on Bun's raw server). Everything
 * else stays with `fetch`, the app's generic handler, which answers exactly as before: a HEAD Bun
 * hands to a GET route, another method, a path with placeholders, an unknown path (404), a
 * method the path does not answer (405 with `Allow`), OPTIONS, a trailing slash.
 *
 * @example Bun.serve({ routes: bunRoutes(app, inFlight, handler), fetch: handler })
 */
export function bunRoutes(app: FixedRoutesTarget, inFlight: StreamsInFlight, generic: BunHandler): BunRoutes {
  const routes: BunRoutes = {};
  for (const route of app.fixedRoutes()) {
    if (!BUN_METHODS.has(route.method) || !PLAIN_PATH.test(route.path)) continue;
    routes[route.path] ??= {};
    routes[route.path]![route.method] = routeHandler(app, inFlight, route, generic);
  }
  return routes;
}

/** The handler of one route and method, made once when the server starts. */
function routeHandler(
  app: FetchTarget,
  inFlight: StreamsInFlight,
  route: FixedRoute,
  generic: BunHandler,
): BunHandler {
  const method = route.method;
  if (route.readsJsonFirst) {
    return (request, server) =>
      request.method === method
        ? answerFixedJson(app, inFlight, route, request, server)
        : generic(request, server);
  }
  // Bun hands a GET route its HEAD requests too: those go the generic way, as they always did.
  return (request, server) =>
    request.method === method ? answerFixed(app, inFlight, route, request, server) : generic(request, server);
}
