import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import type { App } from "../app/app.ts";
import { createServer } from "../node-builtins.ts";
import type { BuiltRoute } from "../route/analyse/build-routes.ts";
import type { CallParams } from "../route/declare/call-params.ts";
import type { ParamDeclarations } from "../route/declare/endpoint.ts";
import type { ModelInput, ModelOutput } from "../route/declare/model-types.ts";
import type { BuiltWebSocketRoute } from "../websocket/built-route.ts";
import type { WebSocketClose } from "../websocket/server-socket-types.ts";
import { encodeRequest, type RequestOptions } from "./encode-request.ts";
import { endpointRequest } from "./endpoint-request.ts";

/** A WebSocket route whose parameters and messages a test client reads (every `websocket()` is one). */
export interface AnyWebSocket<P extends ParamDeclarations, In, Out> {
  readonly kind: "websocket";
  readonly params?: P;
  readonly inbound: In;
  readonly outbound: Out;
}

/** Extra parts of the upgrade request, and which route to use when the declaration is served at several. */
export interface WebSocketOptions extends RequestOptions {
  /** The route's name, when the declaration is served at more than one route. */
  route?: string;
}

/**
 * The server refused the upgrade with an HTTP answer (401, 403, 404, 422): no socket was opened.
 * `status`, the lower-case `headers`, and the body as text (`json()` parses it).
 */
export class WebSocketRefused extends Error {
  override name = "WebSocketRefused";
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;

  constructor(status: number, headers: Record<string, string | string[] | undefined>, text: string) {
    super(`The server refused the WebSocket with ${status}: ${text}`);
    this.status = status;
    this.headers = headers;
    this.text = text;
  }

  json(): any {
    return JSON.parse(this.text);
  }
}

/** The socket closed while a test waited for a message. */
export class WebSocketClosedError extends Error {
  override name = "WebSocketClosedError";
  readonly code: number;
  readonly reason: string;

  constructor(close: WebSocketClose) {
    super(`The WebSocket closed with ${close.code}${close.reason === "" ? "" : `: ${close.reason}`}`);
    this.code = close.code;
    this.reason = close.reason;
  }
}

/** The client side of `ws` a test uses. */
interface ClientSocket {
  readonly readyState: number;
  send(data: string | Buffer, options: { binary: boolean }, callback: (error?: Error) => void): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(event: string, listener: (...args: any[]) => void): unknown;
}

type ClientConstructor = new (
  url: string,
  options: {
    headers: Record<string, string | string[]>;
    createConnection?: () => Duplex;
    maxPayload?: number;
  },
) => ClientSocket;

/**
 * A test's WebSocket, typed from its route: `send()` takes inbound messages, `receive()` and the
 * iterator give outbound ones (and the error messages the server sends for invalid input).
 *
 * @example
 * const socket = await client.websocket(chat, { room: "lobby" });
 * await socket.send({ type: "say", text: "hi" });
 * expect(await socket.receive()).toEqual({ type: "said", text: "hi" });
 * expect(await socket.close()).toEqual({ code: 1000, reason: "" });
 */
export class TestWebSocket<In = unknown, Out = unknown> implements AsyncIterable<Out> {
  /** Resolves once the socket closed, with the code and reason the server's (or the client's) closing frame carried. */
  readonly closed: Promise<WebSocketClose>;
  private readonly socket: ClientSocket;
  private readonly queue: unknown[] = [];
  private waiting: { resolve(value: unknown): void; reject(error: Error): void } | undefined;
  private closeInfo: WebSocketClose | undefined;

  constructor(socket: ClientSocket) {
    this.socket = socket;
    this.closed = new Promise((resolve) => {
      socket.on("close", (code: number, reason: Buffer) => {
        this.closeInfo = { code, reason: reason.toString() };
        const waiting = this.waiting;
        this.waiting = undefined;
        waiting?.reject(new WebSocketClosedError(this.closeInfo));
        resolve(this.closeInfo);
      });
    });
    socket.on("message", (data: Buffer, isBinary: boolean) => {
      const value = isBinary ? data : JSON.parse(data.toString());
      const waiting = this.waiting;
      if (waiting !== undefined) {
        this.waiting = undefined;
        waiting.resolve(value);
      } else this.queue.push(value);
    });
  }

  /** Sends one inbound message as JSON text; resolves once it is written. */
  send(message: In): Promise<void> {
    return this.sendRaw(JSON.stringify(message));
  }

  /** Sends text (or, with `binary`, bytes) as it is: for tests of what the server refuses. */
  sendRaw(data: string | Buffer, options: { binary?: boolean } = {}): Promise<void> {
    return new Promise((resolve, reject) => {
      this.socket.send(data, { binary: options.binary ?? false }, (error) =>
        error ? reject(error) : resolve(),
      );
    });
  }

  /** The next message; rejects with `WebSocketClosedError` (its `code`) when the socket closes first. */
  receive(): Promise<Out> {
    if (this.queue.length > 0) return Promise.resolve(this.queue.shift() as Out);
    if (this.closeInfo !== undefined) return Promise.reject(new WebSocketClosedError(this.closeInfo));
    return new Promise((resolve, reject) => {
      this.waiting = { resolve: resolve as (value: unknown) => void, reject };
    });
  }

  /** Closes the socket (default 1000) and resolves once the server answered, with the close code. */
  close(code = 1000, reason = ""): Promise<WebSocketClose> {
    if (this.closeInfo === undefined) this.socket.close(code, reason);
    return this.closed;
  }

  /** Cuts the connection without a closing handshake, as a client that vanished. */
  terminate(): void {
    this.socket.terminate();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Out> {
    for (;;) {
      try {
        yield await this.receive();
      } catch (error) {
        if (error instanceof WebSocketClosedError) return;
        throw error;
      }
    }
  }
}

/** The inbound message type of a route, as a client sends it. */
export type ClientInbound<In> = ModelInput<In>;
/** The outbound message type of a route, as a client receives it. */
export type ClientOutbound<Out> = ModelOutput<Out>;

/** How a test reaches the app: a base URL, and the connection for in-process sockets. */
export interface WebSocketTarget {
  baseUrl: string;
  createConnection?: () => Duplex;
  defaults?: RequestOptions;
}

/**
 * Opens a test WebSocket to the route that serves `declaration`: parameters placed where the route
 * reads them (path, query, header, cookie), then the handshake. Rejects with `WebSocketRefused` when
 * the server answers with anything but 101.
 */
export async function openTestWebSocket(
  app: App,
  declaration: unknown,
  params: Readonly<Record<string, unknown>>,
  options: WebSocketOptions,
  target: WebSocketTarget,
): Promise<TestWebSocket<any, any>> {
  const route = webSocketRouteOf(app, declaration, options.route);
  const fake = { endpointDescription: route.socketDescription.upgrade, methods: ["GET"], path: route.path };
  const built = endpointRequest(fake as unknown as BuiltRoute, params);
  const encoded = encodeRequest(
    built.path,
    {
      query: { ...built.options.query, ...options.query },
      headers: { ...built.options.headers, ...options.headers },
      cookies: { ...built.options.cookies, ...options.cookies },
    },
    target.defaults ?? {},
  );
  // Without a Host of the test's, ws sends the base URL's (`localhost` in process, the server's address).
  const headers = { ...encoded.headers };
  const { WebSocket } = (await import("ws")) as unknown as { WebSocket: ClientConstructor };
  const socket = new WebSocket(target.baseUrl.replace(/^http/, "ws") + encoded.url, {
    headers,
    ...(target.createConnection === undefined ? {} : { createConnection: target.createConnection }),
  });
  return new Promise((resolve, reject) => {
    socket.on("open", () => resolve(new TestWebSocket(socket)));
    socket.on("error", (error: Error) => reject(error));
    socket.on("unexpected-response", (_request: unknown, response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        reject(
          new WebSocketRefused(response.statusCode ?? 0, response.headers, Buffer.concat(chunks).toString()),
        ),
      );
      response.on("error", reject);
    });
  });
}

function webSocketRouteOf(app: App, declaration: unknown, name: string | undefined): BuiltWebSocketRoute {
  const routes = app.websocketRoutes.filter((route) => route.websocket === declaration);
  const chosen = name === undefined ? routes : routes.filter((route) => route.name === name);
  if (chosen.length === 1) return chosen[0]!;
  if (routes.length === 0)
    throw new TypeError("No route of this app serves the WebSocket given to websocket().");
  const served = routes.map((route) => `"${route.name}" (${route.path})`).join(", ");
  throw new TypeError(
    name === undefined
      ? `The WebSocket is served by several routes, ${served}; pick one with { route: name }.`
      : `No route named "${name}" serves this WebSocket; it is served by ${served}.`,
  );
}

/** The arguments after the route: its parameters (optional when all may be left out), then options. */
export type WebSocketArguments<P extends ParamDeclarations> =
  {} extends CallParams<P>
    ? [params?: CallParams<P>, options?: WebSocketOptions]
    : [params: CallParams<P>, options?: WebSocketOptions];

/** The socket a test gets for a route: typed from its models. */
export type TestWebSocketOf<In, Out> = TestWebSocket<ModelInput<In>, ModelOutput<Out>>;

/**
 * In-process connections: each is a pair of in-memory streams, one end handed to a Node HTTP server
 * that never listens (the app's handler and upgrade listener), the other to the `ws` client.
 */
export function inProcessConnections(app: App): () => Duplex {
  let server: Server | undefined;
  return () => {
    if (server === undefined) {
      // Node's server as listen() starts it: a header sent twice reads as both values, joined by ", ".
      server = createServer({ joinDuplicateHeaders: true, requireHostHeader: false }, app.nodeHandler);
      if (app.upgradeHandler !== undefined) server.on("upgrade", app.upgradeHandler);
    }
    const [client, serverSide] = process.getBuiltinModule("node:stream").duplexPair();
    for (const end of [client, serverSide]) socketLike(end);
    server.emit("connection", serverSide);
    return client;
  };
}

/** What Node's HTTP server and ws call on a socket, as no-ops on an in-memory stream. */
function socketLike(stream: Duplex): void {
  const self = () => stream;
  Object.assign(stream, {
    setTimeout: self,
    setNoDelay: self,
    setKeepAlive: self,
    remoteAddress: "127.0.0.1",
    remotePort: 50_000,
  });
}
