import { loneSurrogateIn, wirePath } from "../../client/encode-request.ts";
import { ValueError } from "../../errors.ts";
import type { Middleware } from "../../http/middleware.ts";
import type { RateLimitPolicy } from "../../rate-limit/policy.ts";
import type { Dependency } from "./dependency.ts";
import type { EndpointDefinition } from "./endpoint.ts";
import type { DependsParam, SecurityParam } from "./markers.ts";
import { checkOpenApiExtra, type OpenApiExtra } from "./openapi-extra.ts";
import { type CallbackDefinition, checkedCallbacks } from "./webhook.ts";

export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * A dependency a route or group runs for every request without handing its value to anyone: a
 * check (`requireAdmin`), or authentication (`p.Security(apiKey)`). Its parameters and security are
 * documented on every operation below it.
 */
export type RouteDependency = Dependency<any, any, any> | DependsParam<any, any> | SecurityParam<any>;

/** Options shared by a route and a group of routes. */
export interface RouteCommonOptions {
  tags?: string[];
  /** Resolved for every request of the route (or of every route of the group), before its own. */
  dependencies?: readonly RouteDependency[];
  /** False keeps the route (or every route of the group) out of the OpenAPI document. */
  includeInSchema?: boolean;
  /** Around the route (or every route of the group), inside the app's and the outer groups'. */
  middleware?: readonly Middleware[];
  /** Rate-limit policies of the route (or of every route of the group), after the app's and the outer groups'. */
  rateLimits?: readonly RateLimitPolicy[];
}

export interface EndpointRouteOptions extends RouteCommonOptions {
  endpoint: EndpointDefinition<any, any, any>;
  routes?: never;
  websocket?: never;
  /** Default `["GET"]`; HEAD is answered wherever GET is. */
  methods?: readonly string[];
  /** The route's name: its stable `operationId` and how messages name it. */
  name?: string;
  summary?: string;
  description?: string;
  operationId?: string;
  /**
   * Requests the API sends once this route's work is done, to a URL its request gave; documented in
   * the operation's `callbacks`, never served: `[callback("invoice-paid", { url, method, endpoint })]`.
   */
  callbacks?: readonly CallbackDefinition[];
  /**
   * Merged into the route's OpenAPI operation, as FastAPI's `openapi_extra`: objects key by key,
   * lists appended, other values replaced: `{ "x-internal": true }`, or a request body described by hand.
   */
  openapiExtra?: OpenApiExtra;
}

export interface GroupRouteOptions extends RouteCommonOptions {
  routes: readonly RouteDefinition[];
  endpoint?: never;
  websocket?: never;
}

/**
 * A WebSocket route's declaration as the route tree sees it: what `websocket({ ... })` makes, of which
 * the tree reads only the kind and the documentation. The websocket room analyses the rest when
 * the app is built (`WebSocketDefinition` extends this).
 */
export interface RoutedWebSocket {
  readonly kind: "websocket";
  readonly name?: string;
  readonly summary?: string;
  readonly description?: string;
  readonly deprecated?: boolean;
  readonly tags?: string[];
}

/** A WebSocket route: its upgrade request is a GET; its middleware does not run (see docs/websockets.md). */
export interface WebSocketRouteOptions extends Omit<RouteCommonOptions, "middleware"> {
  websocket: RoutedWebSocket;
  endpoint?: never;
  routes?: never;
  middleware?: never;
  /** The route's name: its AsyncAPI channel and operation ids, and how messages name it. */
  name?: string;
  summary?: string;
  description?: string;
}

/** A route as declared: one endpoint at a path, a WebSocket route, or a group of routes under a prefix. */
export type RouteDefinition =
  | {
      kind: "route";
      path: string;
      endpoint: EndpointDefinition<any, any>;
      methods: HttpMethod[];
      options: EndpointRouteOptions;
    }
  | { kind: "websocket"; path: string; websocket: RoutedWebSocket; options: WebSocketRouteOptions }
  | { kind: "group"; path: string; routes: readonly RouteDefinition[]; options: GroupRouteOptions };

// `{name}`, or `{name:path}` (Starlette's convertor): the rest of the path, slashes included.
const PLACEHOLDER = /^\{([A-Za-z_][A-Za-z0-9_]*)(:path)?\}$/;
const CONVERTOR = /^\{([A-Za-z_][A-Za-z0-9_]*):[^}]*\}$/;
const REST_PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*):path\}/g;

/**
 * The names of a route path's placeholders, a `{name:path}` one by its name.
 *
 * @example placeholderNames("/shelves/{shelf}/files/{file_path:path}") // ["shelf", "file_path"]
 */
export function placeholderNames(routePath: string): string[] {
  return Array.from(routePath.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)(?::path)?\}/g), (match) => match[1]!);
}

/**
 * The route path as an OpenAPI path template: a `{name:path}` placeholder is `{name}` there, as in
 * FastAPI's document, and the fixed text is percent-encoded as a client sends it (`wirePath`; the
 * path template grammar of OpenAPI 3.1 takes only RFC 3986 pchar, so `/café` is `/caf%C3%A9`).
 *
 * @example templatePath("/files/{file_path:path}") // "/files/{file_path}"
 */
export function templatePath(routePath: string): string {
  const wire = wirePath(routePath);
  return wire.includes(":path}") ? wire.replace(REST_PLACEHOLDER, "{$1}") : wire;
}

/**
 * Refuses a `{name:path}` placeholder anywhere but in the last segment: it takes the rest of the
 * path. Run on each declared path and on each full path a group prefix makes.
 */
export function checkRestLast(routePath: string): void {
  const segments = routePath.split("/");
  for (let index = 0; index < segments.length - 1; index++) {
    if (!segments[index]!.endsWith(":path}")) continue;
    throw new ValueError(
      `The route path "${routePath}" has ${segments[index]} before its last segment; a {name:path} placeholder takes the rest of the path, so only the last segment may be one.`,
    );
  }
}

/**
 * Declares a route, or a group of routes under a prefix. The endpoint is analysed when the app is
 * built, against the full path.
 *
 * @example
 * path("/api/enroll", { routes: [
 *   path("/student-list", { endpoint: listStudents, name: "list_students" }),
 *   path("/bind", { endpoint: bindCourse, methods: ["POST"], name: "bind_course" }),
 * ] })
 */
export function path(
  routePath: string,
  options: EndpointRouteOptions | GroupRouteOptions | WebSocketRouteOptions,
): RouteDefinition {
  checkPath(routePath);
  const hasEndpoint = options.endpoint !== undefined;
  const hasRoutes = options.routes !== undefined;
  const hasWebSocket = options.websocket !== undefined;
  if (Number(hasEndpoint) + Number(hasRoutes) + Number(hasWebSocket) !== 1) {
    throw new ValueError(`path("${routePath}") takes exactly one of endpoint, websocket and routes.`);
  }
  if (!hasEndpoint && (options as { callbacks?: unknown }).callbacks !== undefined) {
    throw new ValueError(
      `path("${routePath}"): callbacks belong to a route with an endpoint, whose request sets them off.`,
    );
  }
  if (!hasEndpoint && (options as { openapiExtra?: unknown }).openapiExtra !== undefined) {
    throw new ValueError(
      `path("${routePath}"): openapiExtra belongs to a route with an endpoint: its operation.`,
    );
  }
  if (hasWebSocket) {
    const socketOptions = options as WebSocketRouteOptions;
    if (socketOptions.websocket.kind !== "websocket") {
      throw new ValueError(`path("${routePath}"): websocket must be made with websocket({ ... }).`);
    }
    if (socketOptions.middleware !== undefined) {
      throw new ValueError(
        `path("${routePath}"): a WebSocket route takes no middleware; check the upgrade with its dependencies, or with a group's or the app's middleware that carries guardUpgrade.`,
      );
    }
    return { kind: "websocket", path: routePath, websocket: socketOptions.websocket, options: socketOptions };
  }
  if (hasRoutes) {
    if (!Array.isArray(options.routes))
      throw new ValueError(`path("${routePath}"): routes must be a list of path(...) routes.`);
    return { kind: "group", path: routePath, routes: options.routes, options: options as GroupRouteOptions };
  }
  const routeOptions = options as EndpointRouteOptions;
  if (routeOptions.endpoint.kind !== "endpoint") {
    throw new ValueError(`path("${routePath}"): endpoint must be made with endpoint({ ... }).`);
  }
  checkedCallbacks(routePath, routeOptions.callbacks);
  if (routeOptions.openapiExtra !== undefined)
    checkOpenApiExtra(`path("${routePath}")`, routeOptions.openapiExtra);
  return {
    kind: "route",
    path: routePath,
    endpoint: routeOptions.endpoint,
    methods: checkMethods(routePath, routeOptions.methods),
    options: routeOptions,
  };
}

function checkPath(routePath: string): void {
  if (typeof routePath !== "string" || !routePath.startsWith("/")) {
    throw new ValueError(`The route path ${JSON.stringify(routePath)} must start with "/".`);
  }
  const lone = loneSurrogateIn(routePath);
  if (lone !== undefined) refuseLoneSurrogate(routePath, lone);
  if (routePath.includes("%")) refusePercent(routePath);
  const seen = new Set<string>();
  for (const segment of routePath.split("/")) {
    if (!segment.includes("{") && !segment.includes("}")) continue;
    const convertor = CONVERTOR.exec(segment);
    if (convertor !== null && !segment.endsWith(":path}")) {
      throw new ValueError(
        `The route path "${routePath}" has the placeholder "${segment}"; the only convertor is :path ({file_path:path}, the rest of the path). Give the type to the parameter instead: ${convertor[1]}: ${zodOf(segment.slice(convertor[1]!.length + 2, -1))}.`,
      );
    }
    if (!PLACEHOLDER.test(segment)) {
      throw new ValueError(
        `The route path "${routePath}" has a malformed placeholder "${segment}"; a placeholder is a whole segment such as {student_id}.`,
      );
    }
    const name = PLACEHOLDER.exec(segment)![1]!;
    if (seen.has(name))
      throw new ValueError(`The route path "${routePath}" repeats the placeholder ${segment}.`);
    seen.add(name);
  }
  checkRestLast(routePath);
}

/**
 * Refuses a lone surrogate in a route path (`"/a\uD800"`, a string cut inside an emoji): it has no
 * UTF-8 form, so it could not be percent-encoded for the document and the clients. The path is
 * shown escaped (JSON.stringify's `\ud800`), as a log could not show the character.
 */
function refuseLoneSurrogate(routePath: string, lone: { escaped: string; position: number }): never {
  throw new ValueError(
    `The route path ${JSON.stringify(routePath)} holds a lone UTF-16 surrogate (${lone.escaped}, character ${lone.position}): a client sends a path as UTF-8, which has no form for half a surrogate pair. Write the whole character (both halves of its pair), or leave it out.`,
  );
}

/**
 * Refuses a `%` in a route path: paths are written decoded and requests matched decoded, so
 * `"/a%20b"` could only be served at `/a%2520b` (what Starlette does); the message names the path
 * to write instead.
 */
function refusePercent(routePath: string): never {
  const encoding = /%[0-9A-Fa-f]{2}/.exec(routePath)?.[0];
  const decoded = encoding === undefined ? undefined : decodedOrUndefined(routePath);
  if (decoded === undefined || decoded.includes("%")) {
    throw new ValueError(
      `The route path "${routePath}" holds a "%": the router matches a request's path decoded, so a route path is written decoded and cannot hold a literal "%".`,
    );
  }
  throw new ValueError(
    `The route path "${routePath}" has a percent-encoding (${encoding}); write the path decoded, as "${decoded}": the router matches a request's path decoded, and a client sends "${wirePath(decoded)}" for it.`,
  );
}

function decodedOrUndefined(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** The Zod schema of a Starlette convertor's type, for the message that refuses the convertor. */
function zodOf(convertor: string): string {
  return { int: "z.int()", float: "z.number()", uuid: "z.uuid()" }[convertor] ?? "z.string()";
}

function checkMethods(routePath: string, methods: readonly string[] | undefined): HttpMethod[] {
  if (methods === undefined) return ["GET"];
  if (!Array.isArray(methods) || methods.length === 0) {
    throw new ValueError(`path("${routePath}"): methods must be a non-empty list such as ["GET"].`);
  }
  const result: HttpMethod[] = [];
  for (const method of methods) {
    const upper = String(method).toUpperCase() as HttpMethod;
    if (!HTTP_METHODS.includes(upper)) {
      throw new ValueError(
        `path("${routePath}"): unknown method "${method}"; use one of ${HTTP_METHODS.join(", ")}.`,
      );
    }
    if (!result.includes(upper)) result.push(upper);
  }
  return result;
}
