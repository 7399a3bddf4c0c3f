import type { App } from "../app/app.ts";
import type { ParamDeclarations } from "../route/declare/endpoint.ts";
import type { CheckedOverrides, DependencyOverride } from "../route/declare/overrides.ts";
import { withOverrides } from "./overrides.ts";
import {
  type AnyWebSocket,
  openTestWebSocket,
  type TestWebSocketOf,
  type WebSocketArguments,
} from "./websocket-client.ts";

/** An app listening on an ephemeral loopback port, for tests that need a real socket. */
export interface RunningServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** `fetch` against the server: `server.fetch("/hello")`. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /**
   * Opens a WebSocket to the route that serves `route`, over the loopback port: the same call, and
   * the same typed socket, as `testClient(app).websocket(...)`.
   */
  websocket<P extends ParamDeclarations, In, Out>(
    route: AnyWebSocket<P, In, Out>,
    ...args: WebSocketArguments<P>
  ): Promise<TestWebSocketOf<In, Out>>;
  close(): Promise<void>;
}

/** Options of `startServer`. */
export interface StartServerOptions<O extends readonly DependencyOverride[] = readonly DependencyOverride[]> {
  /** Dependencies (or schemes) replaced wherever the app's routes declare them, as on `testClient`. */
  overrides?: O & CheckedOverrides<O>;
}

/**
 * Starts an app on `127.0.0.1` and a free port.
 *
 * @example
 * const server = await startServer(app);
 * const response = await server.fetch("/api/enroll/hello");
 * await server.close();
 */
export async function startServer<const O extends readonly DependencyOverride[] = []>(
  app: App,
  options: StartServerOptions<O> = {},
): Promise<RunningServer> {
  const served = withOverrides(app, options.overrides as readonly DependencyOverride[] | undefined);
  await served.listen({ port: 0, host: "127.0.0.1" });
  const port = served.address()!.port;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    fetch: (path, init) => fetch(url + path, init),
    websocket: (route, ...[params, options]) =>
      openTestWebSocket(served, route, params ?? {}, options ?? {}, { baseUrl: url }) as never,
    close: () => served.close(),
  };
}
