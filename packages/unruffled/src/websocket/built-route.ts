import type { UpgradeGuard } from "../http/middleware.ts";
import type { AnalyseOptions } from "../route/analyse/analyse-endpoint.ts";
import type { PlacedWebSocket } from "../route/analyse/build-routes.ts";
import { analyseWebSocket } from "./analyse-websocket.ts";
import type { WebSocketDefinition } from "./declare.ts";
import type { WebSocketDescription } from "./description.ts";

/** A WebSocket route with its full path, its name and its analysis: what the app and the documents use. */
export interface BuiltWebSocketRoute {
  path: string;
  name: string;
  tags: string[];
  summary: string | undefined;
  description: string | undefined;
  deprecated: boolean;
  includeInSchema: boolean;
  websocket: WebSocketDefinition;
  socketDescription: WebSocketDescription;
  /** The `guardUpgrade` checks of its groups' middleware, outermost first: run once it is routed. */
  guards: readonly UpgradeGuard[];
}

/**
 * Analyses a WebSocket route where the route tree placed it, when the app is built; raises
 * `ValueError` naming the route and the fix.
 *
 * @example buildRoutes(definitions, { fileSizeLimit, websockets: (placed) => sockets.push(builtWebSocketRoute(placed, { fileSizeLimit })) })
 */
export function builtWebSocketRoute(
  placed: PlacedWebSocket,
  options: Pick<AnalyseOptions, "fileSizeLimit" | "overrides"> & { strictOutbound?: boolean },
): BuiltWebSocketRoute {
  // path() takes only what websocket() made (it checks the kind); the tree knows it by its face.
  const websocket = placed.websocket as WebSocketDefinition;
  return {
    path: placed.path,
    name: placed.name,
    tags: placed.tags,
    summary: placed.summary,
    description: placed.description,
    deprecated: websocket.deprecated ?? false,
    includeInSchema: placed.includeInSchema,
    websocket,
    guards: placed.guards,
    socketDescription: analyseWebSocket(websocket, {
      path: placed.path,
      label: placed.label,
      fileSizeLimit: options.fileSizeLimit,
      dependencies: placed.dependencies,
      overrides: options.overrides,
      strictOutbound: options.strictOutbound,
    }),
  };
}
