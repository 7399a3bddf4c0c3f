import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { TrustedProxies } from "../client-address/trusted-proxies.ts";
import { ForbiddenError, HttpError, MethodNotAllowedError, NotFoundError, ValueError } from "../errors.ts";
import type { RequestHandler } from "../handling/handle-request.ts";
import { Router } from "../handling/router.ts";
import { NodeBodySource } from "../http/body.ts";
import type { BodyLimits } from "../http/body-limits.ts";
import type { UpgradeGuard } from "../http/middleware.ts";
import type { HttpRequest, RawRequest } from "../http/request.ts";
import { hostRefusal, originFormOf } from "../http/request-target.ts";
import { HttpResponse } from "../http/response.ts";
import type { ErrorLogger } from "../logging/logger.ts";
import type { PubSub } from "../pubsub/pubsub.ts";
import { CLEAN, type DependencyScope } from "../route/resolve/dependency-scope.ts";
import { resolveDependencies } from "../route/resolve/resolve-dependencies.ts";
import { type ResolveOptions, resolveParams } from "../route/resolve/resolve-params.ts";
import type { BuiltWebSocketRoute } from "./built-route.ts";
import { Heartbeat } from "./heartbeat.ts";
import { type PeerServer, peerServer } from "./load-ws.ts";
import { NodeUpgrade } from "./node-upgrade.ts";
import { allowsOrigin } from "./origin.ts";
import { CLOSE, ServerSocket } from "./server-socket.ts";
import { runGuards } from "./upgrade-guards.ts";
import type { UpgradeTransport } from "./upgrade-transport.ts";

/** What serving WebSocket routes needs from the app. */
export interface WebSocketUpgradesOptions {
  routes: readonly BuiltWebSocketRoute[];
  requests: RequestHandler;
  resolveOptions: ResolveOptions;
  requestClass: new (raw: RawRequest) => HttpRequest;
  bodyLimits: BodyLimits;
  /** The proxies `request.client` believes (`PROXIES`), for the requests of Node's `upgrade`. */
  proxies: TrustedProxies | undefined;
  /** The `guardUpgrade` checks of the app's middleware, outermost first: none for most apps. */
  guards: readonly UpgradeGuard[];
  errorLogger: ErrorLogger;
  /** The app's broker, for the sockets' topics (made on first use). */
  pubsub: () => PubSub;
}

// A key is 16 random bytes in base64 (RFC 6455 §4.1); ws refuses anything else after the fact.
const WEBSOCKET_KEY = /^[+/0-9A-Za-z]{22}==$/;

/**
 * The app's WebSocket routes at request time: an upgrade request is routed, its `Origin` checked,
 * its parameters, dependencies and security schemes resolved by the endpoints' own code, and only
 * then is the handshake answered with 101 (any failure gets the usual HTTP answer instead, and the
 * handler never runs). Keeps the open sockets: their heartbeats, and `close()` for the app's drain.
 */
export class WebSocketUpgrades {
  private readonly router = new Router<BuiltWebSocketRoute>();
  private readonly options: WebSocketUpgradesOptions;
  private readonly servers = new Map<BuiltWebSocketRoute, Promise<PeerServer>>();
  private readonly heartbeats = new Map<number, Heartbeat>();
  private readonly open = new Set<ServerSocket>();
  /** Sessions whose handler or clean-ups have not finished: `close()` waits for them. */
  private readonly sessions = new Set<Promise<void>>();
  private closing = false;

  constructor(options: WebSocketUpgradesOptions) {
    this.options = options;
    for (const route of options.routes) {
      if (!this.router.add("GET", route.path, route)) {
        throw new ValueError(`Two WebSocket routes answer ${route.path}; give each route its own path.`);
      }
    }
  }

  /** The largest message any of the routes takes: a server that has one limit for all is set to it. */
  get maxPayload(): number {
    return Math.max(...this.options.routes.map((route) => route.socketDescription.maxPayload));
  }

  /** Whether a WebSocket route answers `path`. */
  answers(path: string): boolean {
    return this.router.find(path) !== undefined;
  }

  /**
   * Whether an upgrade request is for this room (Node's `shouldUpgradeCallback`): a WebSocket
   * handshake, or any upgrade of a WebSocket route's path (refused there with 400). Another
   * protocol's offer elsewhere (`curl --http2` offers `Upgrade: h2c`) is an ordinary request, which
   * the server answers without switching (RFC 9110 §7.8), as in an app without WebSocket routes.
   */
  readonly wants = (message: IncomingMessage): boolean => {
    if (message.headers.upgrade?.toLowerCase() === "websocket") return true;
    // The path as the router reads it: a target in absolute form (a proxy's client) by its path.
    const target = originFormOf(message.url ?? "/");
    const queryStart = target.indexOf("?");
    return this.answers(queryStart < 0 ? target : target.slice(0, queryStart));
  };

  /** How many sockets are open. */
  get size(): number {
    return this.open.size;
  }

  /** Loads `ws` now, so that a missing install fails the start rather than the first client. */
  async prepare(): Promise<void> {
    for (const route of this.options.routes) await this.serverFor(route);
  }

  /**
   * Node's `upgrade` listener: `server.on("upgrade", app.upgradeHandler)`. Never throws: every
   * refusal is an HTTP answer on the connection.
   */
  readonly handler = (message: IncomingMessage, socket: Duplex, head: Buffer): void => {
    // Until ws takes it, a reset of the connection is only a client gone.
    socket.on("error", ignore);
    const request = new this.options.requestClass({
      method: message.method ?? "GET",
      url: message.url ?? "/",
      headers: message.headers,
      socket: message.socket,
      body: new NodeBodySource(message),
      limits: this.options.bodyLimits,
      proxies: this.options.proxies,
      urls: this.options.requests.urls,
    });
    // Node's server refuses an HTTP/1.1 request without Host itself, but not an upgrade.
    const hostRequired = message.httpVersion === "1.1";
    this.upgrade(
      request,
      new NodeUpgrade(message, socket, head, (route) => this.serverFor(route)),
      hostRequired,
    );
  };

  /**
   * One upgrade request, whichever server brought it (`transport`): its Host checked, as a request's
   * is (a 400 for two lines or one that is not host[:port]; `hostRequired`, an HTTP/1.1 upgrade on
   * Node's server, which does not check it for upgrades, refuses one without Host too), then the
   * app's middleware guards (`guardUpgrade`), then routed and its groups' guards run, its handshake
   * headers and `Origin` checked, its parameters and dependencies resolved, then opened, or refused
   * with the app's HTTP answer. Never throws.
   */
  upgrade(request: HttpRequest, transport: UpgradeTransport, hostRequired = false): void {
    const { requests, guards } = this.options;
    const started = requests.begin(request);
    const answer = (response: HttpResponse): void => {
      transport.refuse(requests.finish(request, response, started));
      requests.startWork(request);
    };
    const refuse = (error: unknown): void => {
      const handled = requests.handleError(error, request);
      if (handled instanceof Promise) handled.then(answer, () => transport.abandon());
      else answer(handled);
    };
    const refused = hostRefusal(request.header("host"), hostRequired);
    if (refused !== undefined) refuse(refused);
    else if (guards.length === 0) this.route(request, transport, started, answer, refuse);
    else
      runGuards(
        guards,
        request,
        () => this.route(request, transport, started, answer, refuse),
        answer,
        refuse,
      );
  }

  /** An upgrade the app's guards let through: routed, its groups' guards run, then admitted or refused. */
  private route(
    request: HttpRequest,
    transport: UpgradeTransport,
    started: number,
    answer: (response: HttpResponse) => void,
    refuse: (error: unknown) => void,
  ): void {
    let route: BuiltWebSocketRoute;
    try {
      route = this.routeFor(request);
    } catch (error) {
      refuse(error);
      return;
    }
    const { guards } = route;
    if (guards.length === 0) this.admit(request, route, transport, started, refuse);
    else
      runGuards(
        guards,
        request,
        () => this.admit(request, route, transport, started, refuse),
        answer,
        refuse,
      );
  }

  /** A routed upgrade: its handshake and `Origin` checked, its parameters resolved, then opened or refused. */
  private admit(
    request: HttpRequest,
    route: BuiltWebSocketRoute,
    transport: UpgradeTransport,
    started: number,
    refuse: (error: unknown) => void,
  ): void {
    try {
      checkHandshake(request);
    } catch (error) {
      refuse(error);
      return;
    }
    if (this.closing) {
      refuse(new HttpError(503, "The server is shutting down"));
      return;
    }
    const accept = (values: Record<string, unknown>, scope: DependencyScope | undefined) => {
      transport.ready(route).then(
        () => {
          // The app began closing while the dependencies resolved: refused like a late upgrade.
          if (this.closing)
            this.failed(new HttpError(503, "The server is shutting down"), scope).then(refuse);
          else this.accept(transport, route, request, values, scope, started);
        },
        (error: unknown) => this.failed(error, scope).then(refuse),
      );
    };
    const checked = allowsOrigin(route.socketDescription, request);
    const resolve = (): void => {
      const description = route.socketDescription.upgrade;
      if (description.dependencies === undefined) {
        resolveParams(description, request, this.options.resolveOptions, (error, values) => {
          if (error !== undefined) refuse(error);
          else accept(values!, undefined);
        });
        return;
      }
      resolveDependencies(description, request, this.options.resolveOptions, (error, values, scope) => {
        if (error !== undefined) this.failed(error, scope).then(refuse);
        else accept(values!, scope);
      });
    };
    const originRefused = () =>
      refuse(new ForbiddenError(`The origin ${request.headers.origin} may not open this WebSocket`));
    if (checked === true) resolve();
    else if (checked === false) originRefused();
    else checked.then((allowed) => (allowed ? resolve() : originRefused()), refuse);
  }

  /**
   * Sends 1001 to every open socket and refuses new upgrades; resolves once every socket closed and
   * its handler and clean-ups finished, or at the deadline, when the sockets still open are cut.
   */
  async close(timeout: number): Promise<void> {
    this.closing = true;
    for (const socket of this.open) socket.close(CLOSE.goingAway, "The server is shutting down");
    if (this.sessions.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeout);
      });
      await Promise.race([Promise.all(this.sessions), deadline]);
      clearTimeout(timer);
      for (const socket of this.open) socket.terminate();
    }
    this.closing = false;
  }

  private routeFor(request: HttpRequest): BuiltWebSocketRoute {
    const match = this.router.find(request.path);
    if (match === undefined) throw new NotFoundError(`Not Found: ${request.path}`);
    if (request.method !== "GET") throw new MethodNotAllowedError(["GET"]);
    const route = match.methods.get("GET")!;
    if (match.params !== undefined) {
      for (const key of Object.keys(match.params)) {
        try {
          match.params[key] = decodeURIComponent(match.params[key]!);
        } catch {
          throw new HttpError(400, `Malformed percent-encoding in the path: ${match.params[key]}`);
        }
      }
      request.pathParams = match.params;
    }
    return route;
  }

  private serverFor(route: BuiltWebSocketRoute): Promise<PeerServer> {
    let server = this.servers.get(route);
    if (server === undefined) {
      server = peerServer(route.socketDescription.maxPayload);
      this.servers.set(route, server);
      server.catch(() => this.servers.delete(route));
    }
    return server;
  }

  /** The error to answer: the open generator dependencies get it first, as on an endpoint. */
  private async failed(error: unknown, scope: DependencyScope | undefined): Promise<unknown> {
    if (scope === undefined || !scope.open) return error;
    return scope.unwind(error);
  }

  private accept(
    transport: UpgradeTransport,
    route: BuiltWebSocketRoute,
    request: HttpRequest,
    values: Record<string, unknown>,
    scope: DependencyScope | undefined,
    started: number,
  ): void {
    const opened = transport.open(route, { "x-request-id": request.id });
    if (opened === undefined) {
      // The client left while its dependencies resolved: their clean-ups still run, once.
      this.track(this.cleanUp(request, scope, undefined));
      return;
    }
    const switching = new HttpResponse(null);
    switching.status = 101;
    this.options.requests.finish(request, switching, started);
    const description = route.socketDescription;
    const serverSocket = new ServerSocket(
      opened.peer,
      description,
      request,
      this.options.pubsub,
      opened.connection,
    );
    this.open.add(serverSocket);
    const heartbeat = this.heartbeatFor(description.pingInterval);
    heartbeat?.add(serverSocket);
    const closed = serverSocket.done.then(() => {
      this.open.delete(serverSocket);
      heartbeat?.delete(serverSocket);
      return serverSocket.release();
    });
    const handled = this.runHandler(route, serverSocket, values, request);
    this.track(Promise.all([handled, closed]).then(([failure]) => this.cleanUp(request, scope, failure)));
  }

  /** The handler's run; resolves to what it threw (undefined when it returned), never rejects. */
  private async runHandler(
    route: BuiltWebSocketRoute,
    socket: ServerSocket,
    values: Record<string, unknown>,
    request: HttpRequest,
  ): Promise<unknown> {
    try {
      await route.websocket.handler(socket as never, values as never, request);
      socket.close(CLOSE.normal);
      return undefined;
    } catch (error) {
      this.options.errorLogger.error(
        { err: error, reqId: request.id, method: request.method, path: request.path },
        `The handler of ${route.socketDescription.label} failed; its socket was closed with 1011`,
      );
      socket.close(CLOSE.internalError, "Internal Server Error");
      return error ?? new Error("The handler failed");
    }
  }

  /**
   * The route's generator dependencies end once the socket is closed and the handler done: those of
   * scope "function" first, then the request's `afterResponse()` work (which ends the others). After
   * a failure each gets the error at its `yield`. What a clean-up throws is logged, never sent.
   */
  private async cleanUp(
    request: HttpRequest,
    scope: DependencyScope | undefined,
    failure: unknown,
  ): Promise<void> {
    try {
      if (scope !== undefined && failure !== undefined) await scope.unwind(failure);
      else if (scope?.functionScoped) {
        const outcome = await scope.closeFunctionScoped();
        if (outcome !== CLEAN) await scope.unwind(outcome);
      }
    } catch (error) {
      this.options.errorLogger.error(
        { err: error, reqId: request.id },
        "A WebSocket's dependency clean-up failed",
      );
    }
    this.options.requests.startWork(request);
  }

  private track(session: Promise<void>): void {
    this.sessions.add(session);
    session.finally(() => this.sessions.delete(session));
  }

  private heartbeatFor(interval: number): Heartbeat | undefined {
    if (interval === 0) return undefined;
    let heartbeat = this.heartbeats.get(interval);
    if (heartbeat === undefined) {
      heartbeat = new Heartbeat(interval);
      this.heartbeats.set(interval, heartbeat);
    }
    return heartbeat;
  }
}

/** The handshake's own headers, checked before any dependency runs (RFC 6455 §4.2.1). */
function checkHandshake(request: HttpRequest): void {
  const { headers } = request;
  if (headers.upgrade?.toLowerCase() !== "websocket") {
    throw new HttpError(400, "A WebSocket route is opened with Upgrade: websocket");
  }
  const key = headers["sec-websocket-key"];
  if (typeof key !== "string" || !WEBSOCKET_KEY.test(key.trim())) {
    throw new HttpError(400, "Missing or invalid Sec-WebSocket-Key header");
  }
  const version = headers["sec-websocket-version"];
  if (version !== "13" && version !== "8") {
    throw new HttpError(426, "Unsupported WebSocket version; use 13", { "sec-websocket-version": "13" });
  }
}

function ignore(): void {}
