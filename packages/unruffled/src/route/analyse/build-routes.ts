import { ValueError } from "../../errors.ts";
import {
  checkedMiddleware,
  type Middleware,
  type UpgradeGuard,
  upgradeGuardsOf,
} from "../../http/middleware.ts";
import { checkedPolicies, type RateLimitCompiler } from "../../rate-limit/compile.ts";
import type { RateLimitPolicy } from "../../rate-limit/policy.ts";
import type { EndpointDefinition } from "../declare/endpoint.ts";
import type { OpenApiExtra } from "../declare/openapi-extra.ts";
import type { Overrides } from "../declare/overrides.ts";
import {
  checkRestLast,
  type HttpMethod,
  type RouteDefinition,
  type RouteDependency,
  type RoutedWebSocket,
  templatePath,
} from "../declare/path.ts";
import type { EndpointDescription } from "../description.ts";
import { analyseEndpoint } from "./analyse-endpoint.ts";
import { type BuiltCallback, buildCallbacks } from "./build-webhooks.ts";

/** A route with its full path, its name and its analysed endpoint: what the app and the document use. */
export interface BuiltRoute {
  path: string;
  methods: HttpMethod[];
  name: string;
  /** One stable operation id per method. */
  operationIds: Partial<Record<HttpMethod, string>>;
  tags: string[];
  summary: string | undefined;
  description: string | undefined;
  deprecated: boolean;
  includeInSchema: boolean;
  endpoint: EndpointDefinition;
  endpointDescription: EndpointDescription;
  /** The groups' middleware, outermost first, then the route's own (the app adds its own around). */
  middleware: readonly Middleware[];
  /** Requests the API sends once this route's work is done: documented in its operations only. */
  callbacks?: readonly BuiltCallback[] | undefined;
  /** Merged into the route's operations by the document (`path()`'s `openapiExtra`). */
  openapiExtra?: OpenApiExtra | undefined;
}

/**
 * A WebSocket route where the tree places it: its full path, its name, and what its groups give it.
 * The websocket room analyses it (`builtWebSocketRoute`).
 */
export interface PlacedWebSocket {
  path: string;
  name: string;
  /** `websocket "chat" (GET /chat/{room})`: how definition errors name the route. */
  label: string;
  tags: string[];
  summary: string | undefined;
  description: string | undefined;
  includeInSchema: boolean;
  websocket: RoutedWebSocket;
  /** The app's and the groups' dependencies, resolved for the upgrade before the socket's own. */
  dependencies: readonly RouteDependency[];
  /** The `guardUpgrade` checks of its groups' middleware, outermost first (the app's run before routing). */
  guards: readonly UpgradeGuard[];
}

export interface BuildRoutesOptions {
  fileSizeLimit: number;
  /** The app's dependencies, resolved for every route before the groups' and the route's own. */
  dependencies?: readonly RouteDependency[];
  /** Replacements for dependencies or schemes, wherever they are declared (tests). */
  overrides?: Overrides;
  /** Takes each WebSocket route as the tree places it; without it, a WebSocket route is a definition error. */
  websockets?: (placed: PlacedWebSocket) => void;
  /** The app's rate-limit policies (before the groups' and the route's own), and how they are compiled. */
  rateLimits?: { policies: readonly RateLimitPolicy[]; compile: RateLimitCompiler };
}

/**
 * Flattens nested `path()` groups and analyses every endpoint against its full path. Every
 * definition error is raised here, before the server listens.
 */
export function buildRoutes(
  definitions: readonly RouteDefinition[],
  options: BuildRoutesOptions,
): BuiltRoute[] {
  const routes: BuiltRoute[] = [];
  collect(
    definitions,
    {
      prefix: "",
      tags: [],
      includeInSchema: true,
      dependencies: options.dependencies ?? [],
      middleware: [],
      rateLimits: options.rateLimits?.policies ?? [],
    },
    options,
    routes,
  );
  // Each name with the method and path that took it first, so the message names both operations.
  const operationIds = new Map<string, string>();
  for (const route of routes) {
    for (const [method, id] of Object.entries(route.operationIds)) {
      const first = operationIds.get(id);
      // One method and path twice is the router's to refuse (route-table.ts), in its words.
      if (first === `${method} ${route.path}`) continue;
      if (first !== undefined) {
        throw new ValueError(
          `The routes ${first} and ${method} ${route.path} share the name (operationId) "${id}"; give each route its own name.`,
        );
      }
      operationIds.set(id, `${method} ${route.path}`);
    }
  }
  refuseTemplateClashes(routes);
  return routes;
}

/**
 * Refuses two documented routes that the OpenAPI document could not tell apart: a `{name:path}`
 * route and a `{name}` one at the same place are one template there (`/files/{name}`).
 */
function refuseTemplateClashes(routes: readonly BuiltRoute[]): void {
  if (!routes.some((route) => route.path.includes(":path}"))) return;
  const byHierarchy = new Map<string, BuiltRoute>();
  for (const route of routes) {
    if (!route.includeInSchema) continue;
    const template = templatePath(route.path);
    const first = byHierarchy.get(hierarchyOf(template));
    if (first === undefined) {
      byHierarchy.set(hierarchyOf(template), route);
      continue;
    }
    // One path, or two of one kind whose names differ: the router's to refuse, in its words.
    if (first.path === route.path || first.path.includes(":path}") === route.path.includes(":path}"))
      continue;
    const firstTemplate = templatePath(first.path);
    if (firstTemplate !== template) {
      throw new ValueError(
        `The routes ${documentedMethod(first)} ${first.path} and ${documentedMethod(route)} ${route.path} are the paths ${firstTemplate} and ${template} of the OpenAPI document, which OpenAPI takes for one; name the two placeholders the same, give one of the routes another path, or leave one out of the document (includeInSchema: false).`,
      );
    }
    const shared = route.methods.find((method) => method !== "HEAD" && first.methods.includes(method));
    if (shared !== undefined) {
      throw new ValueError(
        `The routes ${shared} ${first.path} and ${shared} ${route.path} are one operation of the OpenAPI document, ${shared} ${template}, which cannot tell one segment from the rest of the path; give one of them another path or method, or leave one out of the document (includeInSchema: false).`,
      );
    }
  }
}

function documentedMethod(route: BuiltRoute): string {
  return route.methods.find((method) => method !== "HEAD") ?? "GET";
}

/** `/files/{name}` → `/files/{}`: what OpenAPI compares templated paths by. */
function hierarchyOf(template: string): string {
  return template.replace(/\{[^}]*\}/g, "{}");
}

/** What a group passes down to the routes under it. */
interface Inherited {
  prefix: string;
  tags: readonly string[];
  includeInSchema: boolean;
  dependencies: readonly RouteDependency[];
  middleware: readonly Middleware[];
  rateLimits: readonly RateLimitPolicy[];
}

function collect(
  definitions: readonly RouteDefinition[],
  { prefix, tags, includeInSchema, dependencies, middleware, rateLimits }: Inherited,
  options: BuildRoutesOptions,
  into: BuiltRoute[],
): void {
  for (const definition of definitions) {
    if (definition?.kind !== "route" && definition?.kind !== "group" && definition?.kind !== "websocket") {
      throw new ValueError(
        `Under "${prefix || "/"}", ${String(definition)} is not a route; build routes with path(...).`,
      );
    }
    const fullPath = joinPaths(prefix, definition.path);
    checkRestLast(fullPath);
    const routeTags = [...tags, ...(definition.options.tags ?? [])];
    const included = includeInSchema && definition.options.includeInSchema !== false;
    const routeDependencies = [
      ...dependencies,
      ...checkedDependencies(definition.options.dependencies, fullPath),
    ];
    const routeMiddleware = [
      ...middleware,
      ...checkedMiddleware(definition.options.middleware, `path("${definition.path}")`),
    ];
    const routeLimits = [...rateLimits, ...checkedPolicies(definition.options.rateLimits, fullPath)];
    if (definition.kind === "group") {
      const inherited = {
        rateLimits: routeLimits,
        prefix: fullPath,
        tags: routeTags,
        includeInSchema: included,
        dependencies: routeDependencies,
        middleware: routeMiddleware,
      };
      collect(definition.routes, inherited, options, into);
      continue;
    }
    if (definition.kind === "websocket") {
      placeWebSocket(definition, fullPath, routeTags, included, routeDependencies, routeMiddleware, options);
      continue;
    }
    const { endpoint, methods } = definition;
    const routeOptions = definition.options;
    const name = routeOptions.name ?? endpoint.name ?? derivedName(methods[0]!, fullPath);
    const label = `endpoint "${name}" (${methods.join(", ")} ${fullPath})`;
    const operationIds: Partial<Record<HttpMethod, string>> = {};
    const documented = methods.filter((method) => method !== "HEAD");
    for (const method of documented) {
      const base = routeOptions.operationId ?? name;
      operationIds[method] = documented.length === 1 ? base : `${base}_${method.toLowerCase()}`;
    }
    const endpointDescription = analyseEndpoint(endpoint, {
      path: fullPath,
      label,
      fileSizeLimit: options.fileSizeLimit,
      dependencies: routeDependencies,
      overrides: options.overrides,
    });
    if (routeLimits.length > 0 && options.rateLimits !== undefined) {
      // The route's principal, for a policy keyed by it: its first scheme's value.
      const principalIndex =
        endpointDescription.dependencies?.findIndex((node) => node.phase === "authenticate") ?? -1;
      endpointDescription.rateLimiter = options.rateLimits.compile(routeLimits, principalIndex, label);
    }
    into.push({
      path: fullPath,
      methods,
      name,
      operationIds,
      tags: [...new Set([...routeTags, ...(endpoint.tags ?? [])])],
      summary: routeOptions.summary ?? endpoint.summary,
      description: routeOptions.description ?? endpoint.description,
      deprecated: endpoint.deprecated ?? false,
      includeInSchema: included,
      endpoint,
      endpointDescription,
      middleware: routeMiddleware,
      callbacks: buildCallbacks(routeOptions.callbacks, label, options),
      openapiExtra: routeOptions.openapiExtra,
    });
  }
}

function placeWebSocket(
  definition: Extract<RouteDefinition, { kind: "websocket" }>,
  fullPath: string,
  tags: readonly string[],
  includeInSchema: boolean,
  dependencies: readonly RouteDependency[],
  middleware: readonly Middleware[],
  options: BuildRoutesOptions,
): void {
  if (options.websockets === undefined) {
    throw new ValueError(`path("${fullPath}"): WebSocket routes are served by an app, not here.`);
  }
  if (fullPath.includes(":path}")) {
    throw new ValueError(
      `The WebSocket route "${fullPath}" has a {name:path} placeholder; a WebSocket route takes {name} placeholders only.`,
    );
  }
  const { websocket } = definition;
  const routeOptions = definition.options;
  const name = routeOptions.name ?? websocket.name ?? derivedName("websocket", fullPath, true);
  options.websockets({
    path: fullPath,
    name,
    label: `websocket "${name}" (GET ${fullPath})`,
    tags: [...new Set([...tags, ...(websocket.tags ?? [])])],
    summary: routeOptions.summary ?? websocket.summary,
    description: routeOptions.description ?? websocket.description,
    includeInSchema,
    websocket,
    dependencies,
    guards: upgradeGuardsOf(middleware),
  });
}

function checkedDependencies(dependencies: unknown, path: string): readonly RouteDependency[] {
  if (dependencies === undefined) return [];
  if (!Array.isArray(dependencies)) {
    throw new ValueError(
      `path("${path}"): dependencies must be a list such as [requireAdmin, p.Security(apiKey)].`,
    );
  }
  return dependencies;
}

/** `"/api/enroll"` + `"/hello"` → `"/api/enroll/hello"`; a child `"/"` is the prefix itself. */
export function joinPaths(prefix: string, path: string): string {
  if (prefix === "" || prefix === "/") return path;
  if (path === "/") return prefix;
  return prefix.endsWith("/") ? prefix + path.slice(1) : prefix + path;
}

/**
 * `GET /api/enroll/student-list/{id}` → `get_api_enroll_student_list_id`: the name of an unnamed route.
 * Its words are runs of letters and digits of any script (`/café` → `get_café`), as FastAPI's
 * `generate_unique_id` keeps them; `ascii` keeps only A–Z and 0–9, for a name that must be an
 * AsyncAPI id (`^[\w.-]+$`).
 *
 * @example derivedName("GET", "/élèves/{id}") // "get_élèves_id"
 */
export function derivedName(method: string, path: string, ascii = false): string {
  const words = path
    .replace(/:path\}/g, "")
    .replace(/[{}]/g, "")
    .split(ascii ? /[^A-Za-z0-9]+/ : /[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return [method.toLowerCase(), ...words].join("_");
}
