import { HttpError, MethodNotAllowedError, NotFoundError, ValueError } from "../errors.ts";
import type { Middleware, MiddlewareRoute } from "../http/middleware.ts";
import type { HttpRequest } from "../http/request.ts";
import type { HttpResponse } from "../http/response.ts";
import type { ErrorLogger } from "../logging/logger.ts";
import { type Answer, composeMiddleware, type ErrorAnswer } from "../middleware/compose.ts";
import type { BuiltRoute } from "../route/analyse/build-routes.ts";
import type { EndpointDescription } from "../route/description.ts";
import { RouteUrls } from "./route-urls.ts";
import { Router } from "./router.ts";

/** What the router finds for a method at a path: the route, with its middleware composed around it. */
export interface RouteTarget {
  route: BuiltRoute;
  /** The middleware around the endpoint; undefined without any, for the direct path. */
  chain: Answer | undefined;
  /** The middleware every route of the path shares, around the 405 (or 400) of a request none takes. */
  unmatched: Answer | undefined;
  /** False for a route outside the app's middleware (the health routes). */
  appMiddleware: boolean;
}

/** What the route table needs of the request handler: its error answers and its endpoint answers. */
export interface RouteTableOptions {
  /** The app's middleware, around every route, outermost first. */
  middleware: readonly Middleware[];
  handleError: ErrorAnswer;
  /** Told of a streamed body a middleware returned that fails once its answer began. */
  errorLogger: ErrorLogger;
  endpointAnswer(
    description: EndpointDescription,
    request: HttpRequest,
  ): HttpResponse | Promise<HttpResponse>;
}

/**
 * The app's routes by path and method, each with its middleware composed around it once, when it is
 * registered: what a request is matched against, and what answers a request no route takes (404,
 * 405) through the middleware its path's routes share.
 */
export class RouteTable {
  private readonly router = new Router<RouteTarget>();
  /** The path of each route by its name, for `app.urlPathFor` and `request.urlFor`. */
  readonly urls = new RouteUrls();
  /** The routes registered at each path pattern: their middleware is composed knowing all its methods. */
  private readonly targetsByPath = new Map<string, RouteTarget[]>();
  private readonly middleware: readonly Middleware[];
  /** The app's middleware around the 404 of an unknown path; undefined without any. */
  private readonly unknownPath: Answer | undefined;
  /** True once any route (or the unknown path) has middleware: until then no error looks for it. */
  private composed = false;
  /** Why a request that passes through middleware found no route, for the chain's innermost answer. */
  private readonly routingErrors = new WeakMap<HttpRequest, unknown>();
  private readonly handleError: ErrorAnswer;
  private readonly errorLogger: ErrorLogger;
  private readonly endpointAnswer: RouteTableOptions["endpointAnswer"];

  constructor(options: RouteTableOptions) {
    this.middleware = options.middleware;
    this.handleError = options.handleError;
    this.errorLogger = options.errorLogger;
    this.endpointAnswer = options.endpointAnswer;
    this.unknownPath = this.compose(this.middleware, { path: undefined, methods: [] }, this.routingFailure);
  }

  /**
   * Serves a built route at its path, for each of its methods, and composes the middleware of every
   * route at that path again, now that the path answers one more method.
   */
  register(route: BuiltRoute, appMiddleware = true): void {
    const target: RouteTarget = { route, chain: undefined, unmatched: undefined, appMiddleware };
    for (const method of route.methods) {
      if (!this.router.add(method, route.path, target)) {
        // A declaration error, told like the others when the app is built (the CLI's one line).
        const first = this.targetsByPath.get(route.path)?.find((each) => each.route.methods.includes(method));
        // Two routes without a name of their own have the same one, made of the method and path.
        const routes =
          first?.route.name === route.name
            ? `Two routes named "${route.name}"`
            : `The routes "${first?.route.name}" and "${route.name}"`;
        throw new ValueError(
          `${routes} both answer ${method} ${route.path}; give each route its own path or method.`,
        );
      }
    }
    this.urls.add(route);
    const targets = this.targetsByPath.get(route.path) ?? [];
    targets.push(target);
    this.targetsByPath.set(route.path, targets);
    const at = { path: route.path, methods: withHead(targets.flatMap((each) => each.route.methods)) };
    const chains = targets.map((each) => [
      ...(each.appMiddleware ? this.middleware : []),
      ...each.route.middleware,
    ]);
    const unmatched = this.compose(sharedStart(chains), at, this.routingFailure);
    targets.forEach((each, index) => {
      const description = each.route.endpointDescription;
      each.chain = this.compose(chains[index]!, at, (request) => this.endpointAnswer(description, request));
      each.unmatched = unmatched;
    });
  }

  /** The targets at paths without placeholders, by path and method (HEAD is GET's, found by the router). */
  fixedTargets(): { path: string; method: string; target: RouteTarget }[] {
    const targets = [];
    for (const [path, match] of this.router.fixedPaths()) {
      for (const [method, target] of match.methods) targets.push({ path, method, target });
    }
    return targets;
  }

  /** The route and method asked for (404 and 405 thrown), path parameters set. */
  targetFor(request: HttpRequest): RouteTarget {
    const match = this.router.find(request.path);
    if (match === undefined) throw new NotFoundError(`Not Found: ${request.path}`);
    const target =
      match.methods.get(request.method) ?? (request.method === "HEAD" ? match.methods.get("GET") : undefined);
    if (target === undefined) throw new MethodNotAllowedError(withHead(match.allow.split(", ")));
    if (match.params !== undefined) request.pathParams = decodeParams(match.params);
    return target;
  }

  /**
   * The answer to a request no route takes (404, 405, a malformed path): through the middleware its
   * path's routes share, the app's for an unknown path.
   */
  unrouted(error: unknown, request: HttpRequest): HttpResponse | Promise<HttpResponse> {
    if (!this.composed) return this.handleError(error, request);
    const match = this.router.find(request.path);
    const chain = match === undefined ? this.unknownPath : match.methods.values().next().value?.unmatched;
    if (chain === undefined) return this.handleError(error, request);
    this.routingErrors.set(request, error);
    return chain(request);
  }

  /** The innermost answer of the chains that `unrouted` runs: the routing error, handled. */
  private readonly routingFailure: Answer = (request) =>
    this.handleError(this.routingErrors.get(request), request);

  /** `middleware` around `inner`, or undefined without middleware (the caller then goes direct). */
  private compose(middleware: readonly Middleware[], at: MiddlewareRoute, inner: Answer): Answer | undefined {
    if (middleware.length === 0) return undefined;
    this.composed = true;
    return composeMiddleware(middleware, at, inner, this.handleError, this.errorLogger);
  }
}

/** The methods, once each, with HEAD wherever GET is. */
function withHead(methods: readonly string[]): string[] {
  const unique = [...new Set(methods)];
  if (unique.includes("GET") && !unique.includes("HEAD")) unique.push("HEAD");
  return unique;
}

/** The middleware at the start of every list: what all the routes of a path share. */
function sharedStart(lists: readonly (readonly Middleware[])[]): readonly Middleware[] {
  const [first = [], ...rest] = lists;
  let length = first.length;
  for (const list of rest) {
    let index = 0;
    while (index < length && list[index] === first[index]) index++;
    length = index;
  }
  return first.slice(0, length);
}

function decodeParams(params: Record<string, string>): Record<string, string> {
  for (const key of Object.keys(params)) {
    const value = params[key]!;
    if (!value.includes("%")) continue;
    try {
      params[key] = decodeURIComponent(value);
    } catch {
      throw new HttpError(400, `Malformed percent-encoding in the path: ${value}`);
    }
  }
  return params;
}
