import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import { rootPathSetting } from "../client-address/root-path.ts";
import { trustedProxies } from "../client-address/trusted-proxies.ts";
import { HttpError } from "../errors.ts";
import { AfterResponseWork } from "../handling/after-response.ts";
import { type ExceptionHandler, ExceptionHandlers } from "../handling/exception-handlers.ts";
import type { FixedRoute } from "../handling/fixed-routes.ts";
import { RequestHandler } from "../handling/handle-request.ts";
import type { RouteUrls } from "../handling/route-urls.ts";
import { type HealthOptions, resolveHealth } from "../health/health-options.ts";
import { healthRoutes } from "../health/health-routes.ts";
import { HealthState } from "../health/health-state.ts";
import type { BodyLimits } from "../http/body-limits.ts";
import { checkedMiddleware, type Middleware, upgradeGuardsOf } from "../http/middleware.ts";
import { HttpRequest, type PathValues, type RawRequest } from "../http/request.ts";
import type { HttpResponse } from "../http/response.ts";
import { asksForUpgrade } from "../http/upgrade-request.ts";
import { AccessLog } from "../logging/access-log.ts";
import { type ErrorLogger, isPinoLogger, LazyLogger } from "../logging/logger.ts";
import { checkOpenApiSettings } from "../openapi/check-settings.ts";
import { docsRoutes } from "../openapi/docs-pages/routes.ts";
import { generateOpenApi } from "../openapi/generate.ts";
import type { OpenApiDocument } from "../openapi/types.ts";
import { errorFormat } from "../problem/problem-details.ts";
import type { PubSub } from "../pubsub/pubsub.ts";
import { rateLimitCompiler } from "../rate-limit/compile.ts";
import { memoryStore } from "../rate-limit/memory-store.ts";
import type { RateLimitPolicy } from "../rate-limit/policy.ts";
import { rateLimitSettings } from "../rate-limit/settings.ts";
import type { RateLimitStore } from "../rate-limit/store.ts";
import { type BuiltRoute, buildRoutes } from "../route/analyse/build-routes.ts";
import { type BuiltWebhook, buildWebhooks } from "../route/analyse/build-webhooks.ts";
import {
  type CheckedOverrides,
  type DependencyOverride,
  type Overrides,
  overridesOf,
} from "../route/declare/overrides.ts";
import type { RouteDefinition, RouteDependency } from "../route/declare/path.ts";
import type { WebhookDefinition } from "../route/declare/webhook.ts";
import { errorBodyIn } from "../server/client-errors.ts";
import { type FetchHandler, fetchHandler } from "../server/fetch/fetch-adapter.ts";
import {
  type CloseOptions,
  DEFAULT_CLOSE_TIMEOUT_MS,
  type ListenOptions,
  NodeAdapter,
} from "../server/node/node-adapter.ts";
import { asyncApiRoutes } from "../websocket/asyncapi/routes.ts";
import { type BuiltWebSocketRoute, builtWebSocketRoute } from "../websocket/built-route.ts";
import { WebSocketUpgrades } from "../websocket/upgrades.ts";
import { AppPubSub } from "./app-pubsub.ts";
import { logSerializerFallbacks } from "./serializer-log.ts";
import {
  checkSettingGroups,
  type LimitSettings,
  resolveLimits,
  type Settings,
  strictResponses,
} from "./settings.ts";
import { runStartupHooks, type StartupHook, startupHooks } from "./startup.ts";

export interface AppOptions {
  settings?: Settings;
  routes: readonly RouteDefinition[];
  /**
   * Requests the API sends to its users, documented in the OpenAPI document's `webhooks` and never
   * served: `[webhook("new-subscription", { method: "POST", endpoint })]`.
   */
  webhooks?: readonly WebhookDefinition[];
  /** Resolved for every route, before its groups' and its own; their values reach nobody. */
  dependencies?: readonly RouteDependency[];
  /** Handlers by error class; they replace the defaults for the classes they name. */
  exceptionHandlers?: readonly ExceptionHandler[];
  /** A subclass of `HttpRequest` that endpoints receive instead. */
  requestClass?: new (
    raw: RawRequest,
  ) => HttpRequest;
  /**
   * Where errors answered with 500 go (default: the app's pino logger, `createLogger(settings.LOGGING)`).
   * A pino logger given here is the app's logger: it gets the access log too, at its own level.
   */
  logger?: ErrorLogger | Logger;
  /**
   * Around every route, outermost first, and around the 404 of an unknown path:
   * `[cors({ origins }), compression()]`.
   */
  middleware?: readonly Middleware[];
  /**
   * Runs before the server accepts a connection (`listen()`), one hook after another: open a
   * database pool. A failure stops the start: `listen()` rejects with a `StartupError`.
   */
  onStartup?: StartupHook | readonly StartupHook[];
  /** Runs once the server has closed in `close()`: release what the app holds (a database pool). */
  onClose?: () => void | Promise<void>;
  /**
   * The broker of `app.pubsub`: `postgresPubSub()` or `redisPubSub()` (unruffled/pubsub) to reach
   * every instance. Default: across the workers under `--workers N`, else within the process.
   * `app.close()` closes it once the server has closed.
   */
  pubsub?: PubSub;
  /**
   * The liveness, readiness and start-up routes (`/livez`, `/readyz`, `/startupz`), on by default
   * with no checks; `false` leaves them out. See `HealthOptions`.
   *
   * @example health: { checks: { database: () => pool.query("select 1") } }
   */
  health?: HealthOptions | boolean;
  /** Rate-limit policies of every route, before the groups' and the routes' own (`rateLimit()`). */
  rateLimits?: readonly RateLimitPolicy[];
  /**
   * Where the limited routes count (default `memoryStore()`: this process only). `app.close()`
   * closes it.
   */
  rateLimitStore?: RateLimitStore;
}

/**
 * An app: settings and routes, built once. Serve it with `listen()`, embed it with `nodeHandler`
 * (a plain `(req, res)` handler), or call `fetch(Request)` wherever web-standard requests exist.
 * How a request is answered is `RequestHandler`'s (handle-request.ts); how it arrives and leaves,
 * the adapters' (node-adapter.ts, fetch-adapter.ts).
 */
export class App {
  readonly settings: Settings;
  readonly routes: readonly BuiltRoute[];
  /** The webhooks, analysed: documented, never served. */
  readonly webhooks: readonly BuiltWebhook[];
  /** The WebSocket routes, analysed; empty without any (then `ws` is never loaded). */
  readonly websocketRoutes: readonly BuiltWebSocketRoute[];
  /**
   * Node's `upgrade` listener for the WebSocket routes, for embedding:
   * `server.on("upgrade", app.upgradeHandler)` (`listen()` does it); undefined without any.
   */
  readonly upgradeHandler: WebSocketUpgrades["handler"] | undefined;
  /**
   * Which upgrade requests are the WebSocket routes' (Node's `shouldUpgradeCallback`, Node 22.21+ and
   * 24.9+): the others, such as `curl --http2`'s `Upgrade: h2c` offer, are answered as requests. For
   * embedding: `http.createServer({ shouldUpgradeCallback: app.shouldUpgrade }, app.nodeHandler)`
   * (`listen()` does it); undefined without WebSocket routes.
   */
  readonly shouldUpgrade: WebSocketUpgrades["wants"] | undefined;
  readonly limits: Required<LimitSettings>;
  readonly exceptionHandlers: ExceptionHandlers;
  /**
   * A Node `(req, res)` handler, for embedding:
   * `http.createServer({ joinDuplicateHeaders: true, requireHostHeader: false }, app.nodeHandler)`,
   * the options `listen()` sets, so that a single-value header sent twice reads as both values, as on
   * Bun and Deno, and an HTTP/1.1 request without Host is refused in the app's error format.
   */
  readonly nodeHandler: NodeAdapter["handler"];
  /**
   * Node's `clientError` listener, for embedding: `server.on("clientError", app.clientErrorHandler)`
   * answers what Node's parser refuses (400, 408, 413, 431) in the app's error format, as `listen()` does.
   */
  readonly clientErrorHandler: NodeAdapter["clientErrorHandler"];
  /**
   * Answers a web-standard `Request`, for runtimes other than Node's `http`: a promise of the
   * `Response`, except behind a fetch host on Node that passes Node's request and response
   * (`@hono/node-server`), which is given an answer ready at once as it is.
   */
  readonly fetch: FetchHandler;
  /** What the health routes answer from; undefined with `health: false`. */
  readonly health: HealthState | undefined;
  private readonly requestClass: new (
    raw: RawRequest,
  ) => HttpRequest;
  private readonly bodyLimits: BodyLimits;
  private readonly proxies: ReturnType<typeof trustedProxies>;
  /** The route table's paths by name, which every request carries for `request.urlFor`. */
  private readonly urls: RouteUrls;
  private readonly lazyLogger: LazyLogger;
  private readonly requests: RequestHandler;
  private readonly work: AfterResponseWork;
  private readonly errorLogger: ErrorLogger;
  private readonly node: NodeAdapter;
  /**
   * The WebSocket routes' upgrades, whichever server brings them (`serve()` hands Bun.serve's to
   * them); undefined without any.
   */
  readonly websocketUpgrades: WebSocketUpgrades | undefined;
  private readonly onClose: AppOptions["onClose"];
  private readonly options: AppOptions;
  // Shared with the copies of withOverrides(): one broker, whichever of them serves.
  private appPubSub: AppPubSub;
  private readonly startupHooks: readonly StartupHook[];
  private readonly rateLimitStore: RateLimitStore | undefined;
  /** The run of the `onStartup` hooks, once started; cleared by `close()`. */
  private starting: Promise<void> | undefined;
  private started = false;
  /** Ends the wait of a running `drain()` early. */
  private endDrain: (() => void) | undefined;
  /** The app a copy was made from (`withOverrides()`): its `close()` closes the copy too. */
  private original: App | undefined;
  /** This app's copies that started (each ran `onStartup`) and have not closed since. */
  private readonly startedCopies = new Set<App>();

  constructor(options: AppOptions, overrides?: Overrides) {
    this.options = options;
    this.settings = options.settings ?? {};
    checkSettingGroups(this.settings);
    this.limits = resolveLimits(this.settings.LIMITS);
    checkOpenApiSettings(this.settings.OPENAPI);
    this.bodyLimits = {
      body: this.limits.body_size,
      form: this.limits.form_size,
      jsonDepth: this.limits.json_depth,
      fields: this.limits.fields,
    };
    this.requestClass = options.requestClass ?? HttpRequest;
    const proxies = trustedProxies(this.settings.PROXIES);
    this.proxies = proxies;
    this.onClose = options.onClose;
    this.startupHooks = startupHooks(options.onStartup);
    const logging = this.settings.LOGGING ?? {};
    this.lazyLogger = new LazyLogger(logging, isPinoLogger(options.logger) ? options.logger : undefined);
    this.exceptionHandlers = new ExceptionHandlers(
      options.exceptionHandlers ?? [],
      errorFormat(this.settings.ERRORS),
    );
    const errorLogger: ErrorLogger = options.logger ?? {
      error: (details, message) => this.logger.error(details, message),
    };
    this.appPubSub = new AppPubSub(options.pubsub, {
      warn: (details, message) => this.logger.warn(details, message),
      error: (details, message) => this.logger.error(details, message),
    });
    this.errorLogger = errorLogger;
    this.work = new AfterResponseWork(errorLogger);
    // RESPONSES.validate: answers, events and outbound WebSocket messages are checked alike.
    const strict = strictResponses(this.settings);
    const appMiddleware = checkedMiddleware(options.middleware, "createApp({ middleware })");
    this.requests = new RequestHandler({
      exceptionHandlers: this.exceptionHandlers,
      unservedUpgrade: (request) => this.unservedUpgrade(request),
      resolveOptions: {
        uploads: {
          fileSize: this.limits.file_size,
          totalSize: this.limits.upload_size,
          files: this.limits.files,
          fields: this.limits.fields,
          fieldSize: this.limits.field_size,
        },
        rawQuery: !redefinesQuery(this.requestClass),
      },
      errorLogger,
      accessLog: new AccessLog(this.lazyLogger, logging.access_log !== false),
      work: this.work,
      debug: this.settings.DEBUG === true,
      middleware: appMiddleware,
      strictResponses: strict,
    });
    this.urls = this.requests.urls;
    this.urls.rootPath = rootPathSetting(this.settings.ROOT_PATH);
    this.node = new NodeAdapter({
      requests: this.requests,
      work: this.work,
      requestClass: this.requestClass,
      bodyLimits: this.bodyLimits,
      limits: this.limits,
      proxies,
      urls: this.urls,
      errorBody: errorBodyIn(this.exceptionHandlers.problems),
    });
    this.nodeHandler = this.node.handler;
    this.clientErrorHandler = this.node.clientErrorHandler;
    this.fetch = fetchHandler(this);
    const limits = rateLimitSettings(this.settings.RATE_LIMITS);
    this.rateLimitStore = options.rateLimitStore ?? memoryStore();
    const websocketRoutes: BuiltWebSocketRoute[] = [];
    const routes = buildRoutes(options.routes, {
      fileSizeLimit: this.limits.file_size,
      dependencies: options.dependencies ?? [],
      overrides,
      websockets: (placed) =>
        websocketRoutes.push(
          builtWebSocketRoute(placed, {
            fileSizeLimit: this.limits.file_size,
            overrides,
            strictOutbound: strict,
          }),
        ),
      rateLimits: {
        policies: options.rateLimits ?? [],
        compile: rateLimitCompiler({
          store: this.rateLimitStore,
          onStoreFailure: limits.on_store_failure,
          legacyHeaders: limits.legacy_headers,
          warnInterval: limits.warn_interval,
          storeTimeout: limits.store_timeout,
          lastWarning: { at: Number.NEGATIVE_INFINITY },
          warn: (details, message) => {
            const given = options.logger as { warn?: ErrorLogger["error"] } | undefined;
            if (typeof given?.warn === "function") given.warn(details, message);
            else if (given !== undefined) errorLogger.error(details, message);
            else this.logger.warn(details, message);
          },
        }),
      },
    });
    logSerializerFallbacks(routes, this.lazyLogger);
    for (const route of routes) this.register(route);
    const health = resolveHealth(options.health);
    this.health =
      health && new HealthState(health, this.startupHooks.length === 0, () => this.lazyLogger.logger);
    // After the app's own routes, which keep a path they serve themselves; outside its middleware.
    const probes = this.health
      ? healthRoutes(this.health, {
          taken: new Set(routes.map((route) => route.path)),
          fileSizeLimit: this.limits.file_size,
        })
      : [];
    for (const route of probes) this.requests.register(route, false);
    this.routes = health?.openapi ? [...routes, ...probes] : routes;
    // After the probes, which the document may list too: a webhook's operationId is none of theirs.
    this.webhooks = buildWebhooks(options.webhooks, this.routes, {
      fileSizeLimit: this.limits.file_size,
      overrides,
    });
    this.websocketRoutes = websocketRoutes;
    // An app without WebSocket routes has no upgrade listener and never loads ws.
    this.websocketUpgrades =
      websocketRoutes.length === 0
        ? undefined
        : new WebSocketUpgrades({
            routes: websocketRoutes,
            requests: this.requests,
            resolveOptions: this.requests.resolveOptions,
            requestClass: this.requestClass,
            bodyLimits: this.bodyLimits,
            proxies,
            // Read once here, as forRoute is per route: an app whose middleware guards nothing checks nothing.
            guards: upgradeGuardsOf(appMiddleware),
            errorLogger,
            pubsub: () => this.pubsub,
          });
    this.upgradeHandler = this.websocketUpgrades?.handler;
    this.node.upgradeHandler = this.upgradeHandler;
    this.shouldUpgrade = this.websocketUpgrades?.wants;
    this.node.shouldUpgrade = this.shouldUpgrade;
    for (const route of docsRoutes(this)) this.register(route);
    for (const route of asyncApiRoutes(this)) this.register(route);
  }

  /**
   * The app's pino logger: the access log, and the errors unless another `logger` was given. Made
   * from `LOGGING` on first use (pino itself is loaded then).
   */
  get logger(): Logger {
    return this.lazyLogger.logger;
  }

  /**
   * Publish/subscribe across the app's processes: the `pubsub` it was given, else one made on first
   * use (across the workers under `--workers N`, else within the process). Closed by `close()`.
   *
   * @example await app.pubsub.publish(`course:${id}`, JSON.stringify(seats));
   */
  get pubsub(): PubSub {
    return this.appPubSub.get();
  }

  /** The OpenAPI 3.1 document, generated from the routes on first use and cached. */
  openapi(): OpenApiDocument {
    return generateOpenApi(this);
  }

  /**
   * A request of the app's request class with the app's body limits, as an adapter builds it for
   * `handle()`; the in-process test client uses it.
   *
   * @example app.handle(app.createRequest({ method: "GET", url: "/hello", headers: {}, socket: undefined, body }))
   */
  createRequest(raw: Omit<RawRequest, "limits">): HttpRequest {
    // Field by field rather than a spread: it runs for every request of the fetch path.
    return new this.requestClass({
      method: raw.method,
      url: raw.url,
      headers: raw.headers,
      socket: raw.socket,
      body: raw.body,
      limits: this.bodyLimits,
      connection: raw.connection,
      proxies: this.proxies,
      urls: this.urls,
    });
  }

  /**
   * The path of the route named `name`, its placeholders filled with `pathParams`, percent-encoded
   * (a `{name:path}` value keeps its slashes): Starlette's `url_path_for`. Throws `NoMatchFound` for
   * an unknown name, a missing, extra or empty parameter. `request.urlFor` gives an absolute URL.
   *
   * @example app.urlPathFor("get_student", { student_id: 42 }) // "/api/v1/students/42"
   */
  urlPathFor(name: string, pathParams?: PathValues): string {
    return this.urls.pathFor(name, pathParams);
  }

  /**
   * The same app built again with dependencies (or schemes) replaced wherever they are declared:
   * what `testClient(app, { overrides })` and `startServer(app, { overrides })` serve. Each
   * replacement must resolve to what its original does, or the call does not compile.
   *
   * @example const fake = app.withOverrides([[database, dependency({ resolve: () => memoryDb })]]);
   */
  withOverrides<const O extends readonly DependencyOverride[]>(overrides: O & CheckedOverrides<O>): App {
    const copy = new App(this.options, overridesOf(overrides));
    copy.appPubSub = this.appPubSub;
    copy.original = this.original ?? this;
    return copy;
  }

  /** Adds a route after construction (used for the documentation pages). */
  protected register(route: BuiltRoute): void {
    this.requests.register(route);
  }

  /**
   * Answers one request. Never throws: every error becomes a response through the exception
   * handlers, and an error inside a handler becomes a plain 500, as does a response whose headers
   * no adapter could write. Gives the request its id, echoes it in `x-request-id`, and writes the
   * access log record. Synchronous when nothing is awaited. With `startWork` false the request's
   * `afterResponse()` work waits for `startWork(request)`, called once its body was read.
   */
  handle(request: HttpRequest, startWork = true): HttpResponse | Promise<HttpResponse> {
    return this.requests.handle(request, startWork);
  }

  startWork(request: HttpRequest): void {
    this.requests.startWork(request);
  }

  /**
   * The routes at paths without placeholders, each answering a request a runtime's server matched
   * to it itself, as `handle(request, false)` would: `serve()` hands them to `Bun.serve`'s routes.
   * A GET at a path a WebSocket route also answers is left out: its upgrade requests must reach
   * the fetch handler, as they reach Node's `upgrade` listener.
   */
  fixedRoutes(): FixedRoute[] {
    const upgrades = this.websocketUpgrades;
    const routes = this.requests.fixedRoutes();
    if (upgrades === undefined) return routes;
    return routes.filter((route) => route.method !== "GET" || !upgrades.answers(route.path));
  }

  /**
   * The 501 for a WebSocket route's upgrade that reached the HTTP routes: the server that brought it
   * opens no WebSockets (a bare `app.fetch`, Node's handler without the `upgrade` listener).
   */
  private unservedUpgrade(request: HttpRequest): HttpError | undefined {
    const upgrades = this.websocketUpgrades;
    if (upgrades === undefined || !asksForUpgrade(request) || !upgrades.answers(request.path))
      return undefined;
    return new HttpError(
      501,
      `${request.path} is a WebSocket route, and the server that brought this request cannot open a WebSocket: serve the app with serve(app) or unruffled serve, or hand Node's upgrade requests to app.upgradeHandler`,
    );
  }

  /** Turns an error into a response with the nearest exception handler; 500 when none applies. */
  handleError(error: unknown, request: HttpRequest): HttpResponse | Promise<HttpResponse> {
    return this.requests.handleError(error, request);
  }

  /**
   * Resolves once the work that requests queued with `afterResponse()` has finished, including work
   * started meanwhile. The test client waits for it after each request.
   */
  settled(): Promise<void> {
    return this.work.settled();
  }

  /**
   * Runs the `onStartup` hooks in order, once: `listen()` does it before the server accepts a
   * connection, `fetch` and the test client before their first request. Rejects with a
   * `StartupError` when a hook fails, and keeps failing: build a new app to try again.
   *
   * @example await app.startup(); const response = await app.handle(request);
   */
  startup(): Promise<void> {
    // A copy that starts holds what onStartup opened until it closes: its original closes it too.
    if (this.starting === undefined) this.original?.startedCopies.add(this);
    this.starting ??= runStartupHooks(this.startupHooks).then(() => {
      this.started = true;
      if (this.health) {
        this.health.started = true;
        this.health.draining = false;
      }
    });
    return this.starting;
  }

  /**
   * Runs the `onStartup` hooks, then starts Node's HTTP server. Resolves to the listening server, so
   * `port: 0` gives a free port; rejects with a `StartupError` when a hook failed.
   *
   * @example const server = await app.listen({ port: 0 }); const { port } = server.address() as AddressInfo;
   */
  async listen(options: ListenOptions = {}): Promise<Server> {
    await this.startup();
    await this.websocketUpgrades?.prepare();
    return this.node.listen(options);
  }

  /** The address the server listens on, once `listen()` resolved. */
  address(): AddressInfo | undefined {
    return this.node.address();
  }

  /**
   * Readiness answers 503 from now on, and the server keeps serving (each answer with
   * `Connection: close`) for `delay` ms: `true` is `health.drainDelayMs`, skipped when nothing asked
   * for readiness since the app started. `close({ drain })` calls it first; call it yourself to
   * drain without closing.
   *
   * @example await app.drain(5_000); await app.close();
   */
  async drain(delay: boolean | number = true): Promise<void> {
    const health = this.health;
    if (health) health.draining = true;
    this.node.drain();
    const wait = delay === true ? (health?.probed ? health.options.drainDelayMs : 0) : Number(delay);
    if (!(wait > 0)) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.endDrain?.(), wait);
      this.endDrain = () => {
        clearTimeout(timer);
        this.endDrain = undefined;
        resolve();
      };
    });
  }

  /**
   * Stops the server gracefully: accepts no new connection, closes idle keep-alive connections,
   * lets requests in flight finish (their answers carry `Connection: close`), ends event streams
   * (their clients reconnect elsewhere), and at the deadline cuts whatever connections remain. Then
   * waits for the work queued with `afterResponse()` until the same deadline, logs one error record
   * (`reqId`, `method`, `path`) for each request whose work it abandons, closes `app.pubsub`, and
   * runs `onClose`. Does nothing more than close `app.pubsub` for an app that neither listens nor
   * started; a closed app runs `onStartup` again when it next starts (and makes a new default broker).
   * The copies `withOverrides()` made (those `testClient` and `startServer` serve with `overrides`)
   * that started are closed with it, each running `onClose` for its own start.
   *
   * @example process.once("SIGTERM", () => app.close({ timeout: 5_000 }).then(() => process.exit(0)));
   */
  async close(options: CloseOptions = {}): Promise<void> {
    this.original?.startedCopies.delete(this);
    await this.closeThis(options);
    await Promise.all([...this.startedCopies].map((copy) => copy.close(options)));
  }

  private async closeThis(options: CloseOptions): Promise<void> {
    // A drain still waiting ends here: close() was asked for now.
    this.endDrain?.();
    if (options.drain !== undefined && options.drain !== false) await this.drain(options.drain);
    if (this.health) this.health.draining = true;
    const deadline = performance.now() + (options.timeout ?? DEFAULT_CLOSE_TIMEOUT_MS);
    // Open WebSockets get 1001 while the server drains; both end by the same deadline.
    const [listened] = await Promise.all([
      this.node.close(options),
      this.websocketUpgrades?.close(options.timeout ?? DEFAULT_CLOSE_TIMEOUT_MS),
    ]);
    if (!listened && !this.started) {
      await this.appPubSub.close();
      return;
    }
    this.started = false;
    if (this.health) {
      this.health.started = this.startupHooks.length === 0;
      // A drain waits for a probe since the app (next) started, not for one of an earlier run.
      this.health.probed = false;
    }
    // One record per request, with the fields of a failed task's record: found by its request id.
    try {
      for (const request of await this.work.settle(deadline - performance.now())) {
        this.errorLogger.error(
          { reqId: request.id, method: request.method, path: request.path },
          "The app closed while a task queued with afterResponse() was still running; it was abandoned",
        );
      }
      await this.appPubSub.close();
      await this.onClose?.();
      await this.rateLimitStore?.close?.();
    } finally {
      // Only a request after the close starts the app again: one during it (app.fetch, the test
      // client) would run onStartup before onClose, which would then release what it opened.
      this.starting = undefined;
    }
  }
}

/**
 * Builds an app from settings and routes. Every route is analysed here, so every definition error
 * surfaces before the server listens.
 *
 * @example
 * const app = createApp({ settings: { OPENAPI: { info, allow_public: true } }, routes: patterns });
 * await app.listen({ port: 8000 });
 */
export function createApp(options: AppOptions): App {
  return new App(options);
}

/** True when a request class (a subclass of `HttpRequest`) defines `query` its own way. */
function redefinesQuery(requestClass: Function): boolean {
  for (
    let proto = requestClass.prototype;
    proto && proto !== HttpRequest.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    if (Object.hasOwn(proto, "query")) return true;
  }
  return false;
}
