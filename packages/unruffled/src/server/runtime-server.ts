import type { AddressInfo } from "node:net";
import { bunRoutes, type FixedRoutesTarget } from "./bun/bun-routes.ts";
import { type BunLimits, serveOnBun } from "./bun/bun-server.ts";
import { bunUpgrades, bunWebSocketHandlers, type WebSocketServing } from "./bun/bun-websockets.ts";
import { errorBodyIn } from "./client-errors.ts";
import { type ConnectionLimits, timeoutCheckInterval } from "./connection-limits.ts";
import { serveOnDeno } from "./deno-server.ts";
import { endStream, type StreamsInFlight, webHandler, webResponseOf } from "./fetch/fetch-adapter.ts";
import { BodyDeadlines } from "./fetch/web-request-body.ts";
import type { NativeServer } from "./native-server.ts";
import { type CloseOptions, DEFAULT_CLOSE_TIMEOUT_MS, type ListenOptions } from "./node/node-adapter.ts";
import { currentRuntime, type Runtime } from "./runtime.ts";

/** A server started by `serve()`: where it listens, and its graceful close. */
export interface RuntimeServer {
  /** The runtime it runs on. */
  readonly runtime: Runtime;
  /**
   * The server that answers: the runtime's own, or, for an app with WebSocket routes on Deno,
   * Node's `http` through Deno's Node compatibility.
   */
  readonly server: "node:http" | "Bun.serve" | "Deno.serve";
  readonly hostname: string;
  /** The port it listens on (the free one chosen for `port: 0`). */
  readonly port: number;
  /**
   * Stops the server gracefully, as `app.close()` does on Node: with `drain`, readiness answers 503
   * first while the app serves on (each answer with `Connection: close`) for the drain delay; then
   * no new connection, requests in flight finish, event streams end, connections still open at the
   * deadline are cut; then the app's `afterResponse()` work and `onClose`.
   */
  close(options?: CloseOptions): Promise<void>;
}

/**
 * What `serve()` needs of the app: on Node, its own server (`listen`, `address`, `close`); on Bun
 * and Deno, its requests, the limits Bun's server is set from, and its own part of closing.
 */
export interface ServedApp extends FixedRoutesTarget {
  readonly limits: BunLimits & ConnectionLimits;
  listen(options?: ListenOptions): Promise<unknown>;
  drain(delay?: boolean | number): Promise<void>;
  address(): AddressInfo | undefined;
  close(options?: CloseOptions): Promise<void>;
  /**
   * Its WebSocket routes' upgrades, undefined without any: on Node's `upgrade` they open through
   * the `ws` package, on Bun through `Bun.serve`'s own WebSockets; Deno.serve has neither.
   */
  readonly websocketUpgrades: WebSocketServing | undefined;
  /** Whether its error answers are problem details (`ERRORS.format`), for the 408 Deno's server lacks. */
  readonly exceptionHandlers: { readonly problems: boolean };
}

/**
 * Serves the app on the server of the runtime it runs on: Node's `http` (`app.listen()`),
 * `Bun.serve` or `Deno.serve`, after the `onStartup` hooks. The same code starts it on the three.
 *
 * @example
 * const server = await serve(app, { port: 8000 });
 * handleShutdownSignals(() => server.close({ timeout: 10_000 }));
 */
export async function serve(app: ServedApp, options: ListenOptions = {}): Promise<RuntimeServer> {
  const runtime = currentRuntime();
  // WebSocket routes run on Node's `upgrade` or on Bun.serve's WebSockets; `Deno.serve` gives
  // neither: on Deno an app that has them is served by Node's `http`, through Deno's Node
  // compatibility, where they work (every route then goes that way, more slowly).
  const upgrades = app.websocketUpgrades;
  if (runtime === "node" || (runtime === "deno" && upgrades !== undefined)) {
    await app.listen(options);
    const { address, port } = app.address()!;
    const close = (closeOptions?: CloseOptions) => app.close(closeOptions);
    return { runtime, server: "node:http", hostname: address, port, close };
  }
  await app.startup();
  const inFlight: StreamsInFlight = { closing: false, streams: new Map() };
  const port = options.port ?? 8000;
  const hostname = options.host ?? "127.0.0.1";
  let native: NativeServer;
  if (runtime === "bun") {
    const handler = webHandler(app, inFlight, upgrades && bunUpgrades(upgrades, webResponseOf));
    native = serveOnBun(handler, inFlight, {
      port,
      hostname,
      limits: app.limits,
      routes: bunRoutes(app, inFlight, handler),
      ...(upgrades === undefined ? {} : { websocket: bunWebSocketHandlers(upgrades.maxPayload) }),
    });
  } else {
    // Deno.serve has no timeout for a request's body: the fetch handler holds a body the app reads to
    // request_timeout itself (its head, Deno's server reads before the app sees anything).
    inFlight.bodyDeadline = new BodyDeadlines(
      app.limits.request_timeout,
      timeoutCheckInterval(app.limits),
      errorBodyIn(app.exceptionHandlers.problems),
    );
    native = serveOnDeno(webHandler(app, inFlight), inFlight, { port, hostname });
  }
  let closing: Promise<void> | undefined;
  return {
    runtime,
    server: runtime === "bun" ? "Bun.serve" : "Deno.serve",
    hostname: native.hostname,
    port: native.port,
    close(closeOptions = {}) {
      closing ??= drainThenClose(app, native, inFlight, closeOptions, upgrades);
      return closing;
    },
  };
}

/**
 * `close()` on a runtime's own server: first the drain asked for (readiness 503 while the app still
 * serves, each answer with `Connection: close`), as `app.close({ drain })` drains on Node.
 */
async function drainThenClose(
  app: ServedApp,
  native: NativeServer,
  inFlight: StreamsInFlight,
  options: CloseOptions,
  upgrades: WebSocketServing | undefined,
): Promise<void> {
  if (options.drain !== undefined && options.drain !== false) {
    inFlight.draining = true;
    await app.drain(options.drain);
  }
  await closeNative(app, native, inFlight, options.timeout ?? DEFAULT_CLOSE_TIMEOUT_MS, upgrades);
}

async function closeNative(
  app: ServedApp,
  native: NativeServer,
  inFlight: StreamsInFlight,
  timeoutMs: number,
  upgrades: WebSocketServing | undefined,
): Promise<void> {
  const started = performance.now();
  inFlight.closing = true;
  for (const [stream, request] of inFlight.streams) endStream(stream, request);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  try {
    // Bun's server waits for its open WebSockets: they get 1001 now, and end by the same deadline.
    await Promise.all([native.stop(deadline), upgrades?.close(timeoutMs)]);
  } finally {
    clearTimeout(timer);
  }
  // The app's own part of closing: the afterResponse() work until the same deadline, then onClose.
  await app.close({ timeout: Math.max(0, timeoutMs - (performance.now() - started)) });
}
