import type { FixedRoute } from "../../handling/fixed-routes.ts";
import type { HttpRequest } from "../../http/request.ts";
import {
  type FetchTarget,
  requestOf,
  type StreamsInFlight,
  toWeb,
  toWebWhenReady,
} from "../fetch/fetch-adapter.ts";
import { WebClient } from "../fetch/web-client.ts";
import { WebRequestBody } from "../fetch/web-request-body.ts";

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
    const methods = routes[route.path]!;
    methods[route.method] = routeHandler(app, inFlight, route);
    // Bun hands a GET route its HEAD requests too, unless the path names a HEAD handler: those go
    // the generic way, as they always did, and the route's handler need not read the method.
    if (route.method === "GET") methods.HEAD = generic;
  }
  return routes;
}

/**
 * The handler of one route and method, made once when the server starts. Bun calls it for that
 * method alone (its HEAD requests have their own handler), so it reads no method.
 */
function routeHandler(app: FetchTarget, inFlight: StreamsInFlight, route: FixedRoute): BunHandler {
  if (route.readsJsonFirst) {
    return (request, server) => answerFixedJson(app, inFlight, route, request, server);
  }
  return (request, server) => answerFixed(app, inFlight, route, request, server);
}

/**
 * The answer to a request the runtime's server matched to `route` itself (`Bun.serve`'s routes):
 * the app's answer for that route, without its router, and with the URL read only if something
 * asks for it.
 *
 * @example routes[route.path] = { [route.method]: (request, server) => answerFixed(app, inFlight, route, request, server) };
 */
function answerFixed(
  app: FetchTarget,
  inFlight: StreamsInFlight,
  route: FixedRoute,
  webRequest: Request,
  context: unknown,
): Response | Promise<Response> {
  const client = new WebClient(webRequest, context, inFlight.peer);
  // The route's own method: Bun matched it (reading the request's again costs a native call).
  const request = requestOf(app, inFlight, webRequest, route.method, webRequest, client);
  const response = route.answer(request);
  return toWebWhenReady(app, inFlight, response, webRequest, request, client);
}

/**
 * `answerFixed` for a route whose first step is reading a JSON body (`route.readsJsonFirst`): on
 * Bun, a body of announced length within the limit, of a JSON media type, is read here, with one
 * `await request.text()` as a hand-written handler does, and held in the request's body source;
 * the route then answers at once. Through `answerFixed` the same body took three more turns of the
 * microtask queue (the read's checks, the request's callback, the route's and the adapter's
 * `then`). Any other request is `answerFixed`'s, unchanged.
 *
 * @example routes[route.path] = { POST: (request, server) => answerFixedJson(app, inFlight, route, request, server) };
 */
function answerFixedJson(
  app: FetchTarget,
  inFlight: StreamsInFlight,
  route: FixedRoute,
  webRequest: Request,
  context: unknown,
): Response | Promise<Response> {
  const client = new WebClient(webRequest, context, inFlight.peer);
  const body = new WebRequestBody(webRequest, webRequest.headers);
  const request = requestOf(app, inFlight, webRequest, route.method, webRequest, client, body);
  if (!body.readsTextWithin(request.limits.body) || !route.readsBodyOf(request)) {
    return toWebWhenReady(app, inFlight, route.answer(request), webRequest, request, client);
  }
  return answerWithBody(app, inFlight, route, webRequest, request, client, body);
}

/** Reads the body, holds it (or its failure) in `body`, then answers as `answerFixed` does. */
async function answerWithBody(
  app: FetchTarget,
  inFlight: StreamsInFlight,
  route: FixedRoute,
  webRequest: Request,
  request: HttpRequest,
  client: WebClient,
  body: WebRequestBody,
): Promise<Response> {
  const started = route.begin(request);
  let text: string | undefined;
  let failure: unknown;
  try {
    text = await webRequest.text();
  } catch (error) {
    failure = error;
  }
  body.hold(text, failure, request.limits.body);
  const response = route.answerBegun(request, started);
  return toWeb(
    app,
    inFlight,
    response instanceof Promise ? await response : response,
    webRequest,
    request,
    client,
  );
}
