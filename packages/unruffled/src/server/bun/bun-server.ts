import { inRelayedWorker } from "../../pubsub/workers-relay.ts";
import type { StreamsInFlight } from "../fetch/fetch-adapter.ts";
import type { NativeServer } from "../native-server.ts";
import { tellListening } from "../workers.ts";
import type { BunRoutes } from "./bun-routes.ts";
import type { BunWebSocketHandlers } from "./bun-websockets.ts";

/** The part of `Bun.serve` the adapter uses (Bun's own types are not a dependency of the package). */
interface BunServer {
  readonly hostname: string;
  readonly port: number;
  stop(closeActiveConnections?: boolean): Promise<void>;
  requestIP(request: Request): { address: string; port: number } | null;
}
interface BunGlobal {
  serve(options: {
    port: number;
    hostname: string;
    idleTimeout: number;
    maxRequestBodySize: number;
    development: boolean;
    reusePort: boolean;
    routes: BunRoutes;
    fetch: (request: Request, server: BunServer) => Response | undefined | Promise<Response | undefined>;
    websocket?: BunWebSocketHandlers;
  }): BunServer;
}

/** The app's `LIMITS` (resolved) that Bun's own server is set from. */
export interface BunLimits {
  readonly request_timeout: number;
  readonly body_size: number;
  readonly form_size: number;
  readonly upload_size: number;
}

// Bun counts its idle timeout in whole seconds, at most 255.
const BUN_MAX_IDLE_SECONDS = 255;

/**
 * Serves a fetch handler on `Bun.serve`. Bun closes a connection silent for `idleTimeout`, the app's
 * `request_timeout` (a slow upload or a slow answer is not idle before it); a streamed answer (an
 * event stream) is not closed by it. Bun's own body limit is set above the app's, so that the app
 * answers 413 with its own message. `routes` are the app's fixed paths that Bun matches itself
 * (bun-routes.ts); every other request goes to `handler`.
 *
 * @example const native = serveOnBun(handler, inFlight, { port: 0, hostname, limits, routes: bunRoutes(app, inFlight, handler) });
 */
export function serveOnBun(
  handler: (request: Request, context?: unknown) => Response | undefined | Promise<Response | undefined>,
  inFlight: StreamsInFlight,
  options: {
    port: number;
    hostname: string;
    limits: BunLimits;
    routes: BunRoutes;
    /** The app's WebSocket routes' sockets, opened by Bun (bun-websockets.ts); none without such routes. */
    websocket?: BunWebSocketHandlers;
  },
): NativeServer {
  const bun = (globalThis as unknown as { Bun: BunGlobal }).Bun;
  let server: BunServer | undefined;
  inFlight.peer = (request) => server!.requestIP(request);
  const { limits } = options;
  server = bun.serve({
    port: options.port,
    hostname: options.hostname,
    idleTimeout: Math.min(BUN_MAX_IDLE_SECONDS, Math.ceil(limits.request_timeout / 1000)),
    maxRequestBodySize: Math.max(limits.body_size, limits.form_size, limits.upload_size) + 1024 * 1024,
    development: false,
    // The workers of `unruffled serve --workers N` share the port; the kernel spreads connections.
    reusePort: inRelayedWorker(),
    routes: options.routes,
    fetch: handler,
    ...(options.websocket === undefined ? {} : { websocket: options.websocket }),
  });
  const running = server;
  tellListening();
  return {
    hostname: running.hostname,
    port: running.port,
    async stop(deadline) {
      // Requests in flight finish; at the deadline, what remains is cut.
      let cut = false;
      await Promise.race([
        running.stop(false),
        deadline.then(() => {
          cut = true;
        }),
      ]);
      if (cut) await running.stop(true);
    },
  };
}
