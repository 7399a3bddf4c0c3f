import type { Duplex } from "node:stream";
import type { App } from "../app/app.ts";
import { WebBodySource } from "../http/body.ts";
import type { BuiltRoute } from "../route/analyse/build-routes.ts";
import type { ParamDeclarations, Returns } from "../route/declare/endpoint.ts";
import type { CheckedOverrides, DependencyOverride } from "../route/declare/overrides.ts";
import type { AnyEndpoint, CallableEndpoint, CallResponse, OmittableParams } from "./call-types.ts";
import {
  type BodyOptions,
  encodeRequest,
  type RequestHeaders,
  type RequestOptions,
  receivedHeaders,
} from "./encode-request.ts";
import { endpointRequest } from "./endpoint-request.ts";
import { requestOverHttp } from "./over-http.ts";
import { withOverrides } from "./overrides.ts";
import { readResponse, type TestResponse } from "./test-response.ts";
import {
  type AnyWebSocket,
  inProcessConnections,
  openTestWebSocket,
  type TestWebSocketOf,
  type WebSocketArguments,
} from "./websocket-client.ts";

/** Headers and cookies every request of a client carries (a request's own values win). */
export interface TestClientOptions<O extends readonly DependencyOverride[] = readonly DependencyOverride[]> {
  /** A header sent more than once is a list of values: `{ accept: ["text/html", "application/json"] }`. */
  headers?: RequestHeaders;
  cookies?: Readonly<Record<string, string>>;
  /**
   * Dependencies (or schemes) replaced wherever the app's routes declare them, each by one that
   * resolves to the same type: `[[database, dependency({ resolve: () => memoryDb })]]`.
   */
  overrides?: O & CheckedOverrides<O>;
  /**
   * Where a server runs this app (`http://127.0.0.1:3000`): each request goes there over HTTP
   * instead of to `app.handle()` in process, so that the same tests check the app served by another
   * runtime, another process or a deployment. The app is read for its routes only.
   */
  baseUrl?: string;
}

/** Extra request parts for `call`, and which route to use when the endpoint is served at several. */
export interface CallOptions extends RequestOptions {
  /** The route's name, when the endpoint is served at more than one route. */
  route?: string;
  /** Another of the route's methods than its first. */
  method?: string;
}

// What `request.client` reports for a test request: a loopback client, as a local browser would be.
const TEST_SOCKET = { remoteAddress: "127.0.0.1", remotePort: 50_000 };

/**
 * Calls an app in-process, without a socket: each request is built as the Node adapter would build
 * it and answered by `app.handle()`, through routing, parameter resolution, validation and the
 * exception handlers. The app's `onStartup` hooks run before the first request. Path-based methods
 * take any path; `call` is typed from an endpoint.
 *
 * @example
 * const client = testClient(app);
 * const page = await client.get("/api/enroll/student-list", { query: { page: 2 } });
 * const bound = await client.call(bindCourse, { body: { student_id: 1, course_id: 2 } });
 * expect(bound.json().data.course_id).toBe(2);
 */
export class TestClient {
  readonly app: App;
  private readonly defaults: TestClientOptions<any>;
  private routesByEndpoint: Map<unknown, BuiltRoute[]> | undefined;
  private connections: (() => Duplex) | undefined;

  /** `app` is served as it is: `testClient()` applies overrides. */
  constructor(app: App, options: TestClientOptions<any> = {}) {
    this.app = app;
    this.defaults = options;
  }

  get(path: string, options?: RequestOptions): Promise<TestResponse> {
    return this.request("GET", path, options);
  }

  head(path: string, options?: RequestOptions): Promise<TestResponse> {
    return this.request("HEAD", path, options);
  }

  post(path: string, options?: BodyOptions): Promise<TestResponse> {
    return this.request("POST", path, options);
  }

  put(path: string, options?: BodyOptions): Promise<TestResponse> {
    return this.request("PUT", path, options);
  }

  patch(path: string, options?: BodyOptions): Promise<TestResponse> {
    return this.request("PATCH", path, options);
  }

  delete(path: string, options?: BodyOptions): Promise<TestResponse> {
    return this.request("DELETE", path, options);
  }

  /**
   * Sends one request with any method. `path` may hold a query string; `query` values are added.
   *
   * @example await client.request("OPTIONS", "/hello")
   */
  async request(method: string, path: string, options: BodyOptions = {}): Promise<TestResponse> {
    if (!path.startsWith("/")) throw new TypeError(`A test request path starts with "/", got "${path}".`);
    // RFC 9112 §3.2: no client can write another character in a request target (Node's refuses some,
    // and Node's server answers 400 to the bytes it sends for others): refused alike in process.
    if (/[^\x21-\x7e]/.test(path)) {
      throw new TypeError(
        `A test request path is sent as written, so it holds visible ASCII only: percent-encode the rest (encodeURIComponent), got ${JSON.stringify(path.slice(0, 200))}.`,
      );
    }
    method = method.toUpperCase();
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Z]+$/.test(method)) {
      throw new TypeError(
        `A test request method is an HTTP token (letters, digits and !#$%&'*+-.^_\`|~), got ${JSON.stringify(method.slice(0, 100))}.`,
      );
    }
    const encoded = encodeRequest(path, options, this.defaults, method);
    if (this.defaults.baseUrl !== undefined) return requestOverHttp(this.defaults.baseUrl, method, encoded);
    encoded.headers.host ??= "localhost";
    const headers = receivedHeaders(encoded.headers);
    // As a server would, the app runs its onStartup hooks before it answers anything.
    await this.app.startup();
    const client = new AbortController();
    const request = this.app.createRequest({
      method,
      url: encoded.url,
      headers,
      socket: TEST_SOCKET,
      body: new WebBodySource(streamOf(encoded.body), headers["content-length"] ?? null),
      connection: client.signal,
    });
    // As on a socket, the work after the answer (afterResponse() tasks, then the generator
    // dependencies' clean-ups) starts once the body was read, not when the response object exists.
    const response = await readResponse(
      await this.app.handle(request, false),
      request.method,
      () => client.abort(),
      () => this.app.startWork(request),
    );
    // As on a server, the work queued with afterResponse() runs after the answer; a test sees it done.
    await this.app.settled();
    return response;
  }

  // Two signatures rather than one whose parameter list a conditional type chooses: at each call
  // site that conditional cost the checker more than the rest of the call. The one without
  // parameters comes first, so that a call with wrong parameters reports the other's error.
  /**
   * Calls the route that serves `endpoint`, an endpoint whose parameters may all be left out.
   * The answer is typed as the endpoint's documented `ResponseSpec` models (`CallResponse`).
   *
   * @example
   * const response = await client.call(hello);
   */
  call<Params, Ret extends Returns>(
    endpoint: CallableEndpoint<Params, Ret> & OmittableParams<Params>,
  ): Promise<CallResponse<Ret>>;
  /**
   * Calls the route that serves `endpoint`, with values keyed by parameter name and typed from its
   * declarations; each value goes where the endpoint reads it (path, query, header, cookie, body).
   * The answer is one `TestResponse` per documented status, each typed as its model in JSON form
   * (a date is a string), so that a check of `status` narrows `json()` (`CallResponse`).
   *
   * @example
   * const response = await client.call(listStudents, { page: 2, search: "ann" });
   * if (response.status === 200) response.json().data; // typed from StudentListResponse
   */
  // Params and Ret are read whole from the endpoint's type (its `~call`, computed once per endpoint,
  // and its `returns`); NoInfer keeps the object written at the call from being a second source of Params.
  call<Params, Ret extends Returns>(
    endpoint: CallableEndpoint<Params, Ret>,
    params: NoInfer<Params>,
    options?: CallOptions,
  ): Promise<CallResponse<Ret>>;
  async call(
    endpoint: AnyEndpoint<ParamDeclarations, Returns>,
    params?: Readonly<Record<string, unknown>>,
    options: CallOptions = {},
  ): Promise<TestResponse> {
    const built = endpointRequest(this.routeOf(endpoint, options.route), params ?? {});
    const response = await this.request(options.method ?? built.method, built.path, {
      ...built.options,
      query: { ...built.options.query, ...options.query },
      headers: { ...built.options.headers, ...options.headers },
      cookies: { ...built.options.cookies, ...options.cookies },
    });
    return response;
  }

  /**
   * Opens a WebSocket to the route that serves `route` (a `websocket()` declaration), in process:
   * no port, the app's own upgrade handling over an in-memory connection. Parameters go where the
   * route reads them; `send()` is typed from its inbound model, `receive()` from its outbound one.
   * Rejects with `WebSocketRefused` (status, headers, body) when the upgrade is refused.
   *
   * @example
   * const socket = await client.websocket(chat, { room: "lobby" });
   * await socket.send({ type: "say", text: "hi" });
   * expect(await socket.receive()).toEqual({ type: "said", text: "hi" });
   */
  async websocket<P extends ParamDeclarations, In, Out>(
    route: AnyWebSocket<P, In, Out>,
    ...[params, options]: WebSocketArguments<P>
  ): Promise<TestWebSocketOf<In, Out>> {
    if (this.defaults.baseUrl !== undefined) {
      return openTestWebSocket(this.app, route, params ?? {}, options ?? {}, {
        baseUrl: this.defaults.baseUrl,
        defaults: this.defaults,
      });
    }
    await this.app.startup();
    this.connections ??= inProcessConnections(this.app);
    return openTestWebSocket(this.app, route, params ?? {}, options ?? {}, {
      baseUrl: "http://localhost",
      createConnection: this.connections,
      defaults: this.defaults,
    });
  }

  private routeOf(endpoint: unknown, name: string | undefined): BuiltRoute {
    if (this.routesByEndpoint === undefined) {
      this.routesByEndpoint = new Map();
      for (const route of this.app.routes) {
        const list = this.routesByEndpoint.get(route.endpoint) ?? [];
        list.push(route);
        this.routesByEndpoint.set(route.endpoint, list);
      }
    }
    const routes = this.routesByEndpoint.get(endpoint) ?? [];
    const chosen = name === undefined ? routes : routes.filter((route) => route.name === name);
    if (chosen.length === 1) return chosen[0]!;
    const served = routes.map((route) => `"${route.name}" (${route.path})`).join(", ");
    if (routes.length === 0) throw new TypeError("No route of this app serves the endpoint given to call().");
    if (name !== undefined) {
      throw new TypeError(`No route named "${name}" serves this endpoint; it is served by ${served}.`);
    }
    throw new TypeError(
      `The endpoint is served by several routes, ${served}; pick one with { route: name }.`,
    );
  }
}

/**
 * An in-process client for an app: no socket, no port, the app's own `handle()`.
 *
 * @example
 * const client = testClient(app, { headers: { authorization: "Bearer test" } });
 * const response = await client.post("/api/enroll/bind", { json: { student_id: 1, course_id: 2 } });
 * const faked = testClient(app, { overrides: [[database, dependency({ resolve: () => memoryDb })]] });
 */
export function testClient<const O extends readonly DependencyOverride[] = []>(
  app: App,
  options?: TestClientOptions<O>,
): TestClient {
  if (options?.baseUrl !== undefined) checkBaseUrl(options);
  return new TestClient(
    withOverrides(app, options?.overrides as readonly DependencyOverride[] | undefined),
    options,
  );
}

/** A base URL is an http(s) origin, optionally with a path prefix; overrides cannot reach a server. */
function checkBaseUrl(options: TestClientOptions<readonly DependencyOverride[]>): void {
  const { baseUrl, overrides } = options;
  if (!/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(baseUrl!) || baseUrl!.endsWith("/")) {
    throw new TypeError(
      `testClient's baseUrl is an http(s) URL without a trailing slash, query or fragment (http://127.0.0.1:3000), got "${baseUrl}".`,
    );
  }
  if (overrides !== undefined && overrides.length > 0) {
    throw new TypeError(
      "testClient's overrides replace dependencies in process: a client with a baseUrl calls a server, which resolves its own.",
    );
  }
}

function streamOf(bytes: Buffer | undefined): ReadableStream<Uint8Array> | null {
  if (bytes === undefined) return null;
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}
