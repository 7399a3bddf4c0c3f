import type { ClientOptions } from "./client-options.ts";
import { encodeCall } from "./encode-request.ts";
import type { ParamPlan } from "./operation-plan.ts";

/** What a generated client knows of a WebSocket route at run time: its path and parameters. */
export interface SocketPlan {
  readonly path: string;
  readonly params: readonly ParamPlan[];
}

/** How a socket ended: the close code (1000 normal, 1001 server going away, 1007 invalid message, 1006 cut…). */
export interface SocketClose {
  code: number;
  reason: string;
  wasClean: boolean;
}

/**
 * An open socket of a generated client: `send()` takes the route's inbound messages, iterating it
 * gives its outbound ones (and the error message for an invalid one) until it closes; `closed`
 * gives the close code as a value.
 *
 * @example
 * const result = await client.chat({ room: "lobby" });
 * if (result.ok) { result.socket.send({ type: "say", text: "hi" }); for await (const message of result.socket) … }
 */
export interface ClientSocket<In, Out> extends AsyncIterable<Out> {
  send(message: In): void;
  close(code?: number, reason?: string): void;
  /** Resolves once the socket closed, however it closed; never rejects. */
  readonly closed: Promise<SocketClose>;
}

/** `connect`'s result: the open socket, or how it closed before it opened (a refused upgrade is 1006). */
export type SocketResult<In, Out> =
  | { ok: true; socket: ClientSocket<In, Out> }
  | { ok: false; close: SocketClose };

/** What one connection may add: headers (Node's WebSocket sends them; browsers cannot). */
export interface SocketOptions {
  headers?: Readonly<Record<string, string>>;
}

/** The platform's `WebSocket` (browsers, Node 22+), as far as a client uses it. */
interface PlatformSocket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: string, listener: (event: any) => void): void;
}
type PlatformSocketClass = new (url: string, init?: unknown) => PlatformSocket;

/**
 * Opens a WebSocket route with the platform's `WebSocket`: the parameters placed as the server reads
 * them (path, query; headers only where the platform can send them), the URL made from `baseUrl`
 * (`http` becomes `ws`; `""` is the page's own origin). Resolves once open, or closed first; never
 * rejects.
 */
export function connectSocket(
  plan: SocketPlan,
  params: Readonly<Record<string, unknown>>,
  options: ClientOptions,
  socketOptions: SocketOptions,
): Promise<SocketResult<unknown, unknown>> {
  const encoded = encodeCall({ method: "GET", path: plan.path, params: plan.params, answers: {} }, params);
  const base =
    options.baseUrl === "" ? (globalThis as { location?: { href: string } }).location?.href : options.baseUrl;
  const url = new URL(joinPath(options.baseUrl === "" ? "" : options.baseUrl, encoded.target), base);
  url.protocol = url.protocol === "https:" ? "wss:" : url.protocol === "http:" ? "ws:" : url.protocol;
  const headers = { ...encoded.headers, ...socketOptions.headers };
  const Platform = (globalThis as unknown as { WebSocket: PlatformSocketClass }).WebSocket;
  // Node's WebSocket (undici) takes headers in its second argument; a browser's ignores them.
  const socket =
    Object.keys(headers).length === 0 ? new Platform(url.href) : new Platform(url.href, { headers });
  return new Promise((resolve) => {
    const opened = new OpenSocket(socket);
    socket.addEventListener("open", () => resolve({ ok: true, socket: opened }));
    opened.closed.then((close) => resolve({ ok: false, close }));
  });
}

class OpenSocket implements ClientSocket<unknown, unknown> {
  readonly closed: Promise<SocketClose>;
  private readonly socket: PlatformSocket;
  private readonly queue: unknown[] = [];
  private taker: ((result: IteratorResult<unknown>) => void) | undefined;
  private ended = false;

  constructor(socket: PlatformSocket) {
    this.socket = socket;
    socket.addEventListener("message", (event: { data: unknown }) => {
      const value = typeof event.data === "string" ? JSON.parse(event.data) : event.data;
      const taker = this.taker;
      this.taker = undefined;
      if (taker !== undefined) taker({ done: false, value });
      else this.queue.push(value);
    });
    this.closed = new Promise((resolve) => {
      socket.addEventListener("close", (event: { code: number; reason: string; wasClean: boolean }) => {
        this.ended = true;
        const taker = this.taker;
        this.taker = undefined;
        taker?.({ done: true, value: undefined });
        resolve({ code: event.code, reason: event.reason, wasClean: event.wasClean });
      });
    });
    // An error is followed by close; the close is what the caller reads.
    socket.addEventListener("error", () => {});
  }

  send(message: unknown): void {
    if (this.socket.readyState === 1) this.socket.send(JSON.stringify(message));
  }

  close(code = 1000, reason = ""): void {
    this.socket.close(code, reason);
  }

  [Symbol.asyncIterator](): AsyncIterator<unknown> {
    return {
      next: () => {
        if (this.queue.length > 0) return Promise.resolve({ done: false, value: this.queue.shift() });
        if (this.ended) return Promise.resolve({ done: true, value: undefined });
        return new Promise((resolve) => {
          this.taker = resolve;
        });
      },
    };
  }
}

function joinPath(baseUrl: string, target: string): string {
  return baseUrl.endsWith("/") ? baseUrl.slice(0, -1) + target : baseUrl + target;
}
