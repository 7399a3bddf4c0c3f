import type { HttpRequest } from "../http/request.ts";
import type { HttpResponse } from "../http/response.ts";
import type { PeerSocket } from "./load-ws.ts";
import type { OpenedPeer, UpgradeTransport } from "./upgrade-transport.ts";

/** The part of Bun's `ServerWebSocket` a peer uses (Bun's own types are not a dependency). */
export interface BunSocket {
  readonly readyState: number;
  readonly data: BunPeer;
  send(data: string): number;
  close(code?: number, reason?: string): void;
  terminate(): void;
  ping(): number;
  pause(): void;
  resume(): void;
  getBufferedAmount(): number;
}

/** The part of Bun's server an upgrade uses. */
export interface BunUpgrader {
  upgrade(request: Request, options: { data: BunPeer; headers: Record<string, string> }): boolean;
}

// Bun's readyState once its socket closed (as ws's CLOSED).
const CLOSED = 3;
// RFC 6455 §7.4.1: the message was larger than the endpoint takes.
const MESSAGE_TOO_BIG = 1009;

type MessageListener = (data: Buffer | string, isBinary: boolean) => void;
type CloseListener = (code: number, reason: string) => void;

/**
 * Whether a message as Bun received it holds more than `limit` bytes; a string's UTF-8 length is
 * counted only when it might (a UTF-16 unit is at most 3 bytes of UTF-8).
 */
function largerThan(message: string | Buffer, limit: number): boolean {
  if (typeof message !== "string") return message.byteLength > limit;
  return message.length * 3 > limit && Buffer.byteLength(message) > limit;
}

/**
 * One of Bun's server WebSockets as the `ws` socket the WebSocket room is written on: the same
 * events, sends and flow control (`pause()`/`resume()` stop reading, as on Node), so a route's
 * sockets behave alike on both servers. Bun takes one message size for the whole server; a
 * route's smaller `maxPayload` is enforced here, with the 1009 that `ws` sends.
 */
export class BunPeer implements PeerSocket {
  private socket: BunSocket | undefined;
  private readonly maxPayload: number;
  private onMessage: MessageListener | undefined;
  private onClose: CloseListener | undefined;
  private onPong: (() => void) | undefined;
  /** Callbacks of sends Bun queued (backpressure): called once it drained. */
  private flushed: (() => void)[] = [];

  constructor(maxPayload: number) {
    this.maxPayload = maxPayload;
  }

  /** Bun opened the socket (its `open` handler, called within `server.upgrade()`). */
  opened(socket: BunSocket): void {
    this.socket = socket;
  }

  received(message: string | Buffer): void {
    if (largerThan(message, this.maxPayload)) {
      this.socket!.close(MESSAGE_TOO_BIG, "Message too big");
      return;
    }
    // A text message stays the string Bun decoded: the room parses it as it is.
    this.onMessage?.(message, typeof message !== "string");
  }

  closed(code: number, reason: string): void {
    const waiting = this.flushed;
    this.flushed = [];
    for (const callback of waiting) callback();
    this.onClose?.(code, reason);
  }

  ponged(): void {
    this.onPong?.();
  }

  drained(): void {
    const waiting = this.flushed;
    this.flushed = [];
    for (const callback of waiting) callback();
  }

  get readyState(): number {
    return this.socket?.readyState ?? CLOSED;
  }

  get bufferedAmount(): number {
    return this.socket?.getBufferedAmount() ?? 0;
  }

  send(data: string, callback?: (error?: Error) => void): void {
    const status = this.socket!.send(data);
    if (callback === undefined) return;
    // -1: queued behind earlier bytes, flushed by a later `drain`; otherwise written (or dropped, closed).
    if (status === -1) this.flushed.push(callback);
    else queueMicrotask(callback);
  }

  close(code?: number, reason?: string): void {
    this.socket?.close(code, reason);
  }

  terminate(): void {
    this.socket?.terminate();
  }

  ping(): void {
    this.socket?.ping();
  }

  pause(): void {
    this.socket?.pause();
  }

  resume(): void {
    this.socket?.resume();
  }

  on(event: "message", listener: MessageListener): unknown;
  on(event: "close", listener: CloseListener): unknown;
  on(event: "pong", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  on(event: "message" | "close" | "pong" | "error", listener: never): unknown {
    if (event === "message") this.onMessage = listener;
    else if (event === "close") this.onClose = listener;
    else if (event === "pong") this.onPong = listener;
    // Bun closes the socket itself on a protocol error, and reports only the close.
    return this;
  }
}

/**
 * An upgrade request on `Bun.serve`: refused with the app's HTTP answer as the fetch handler's
 * `Response`, accepted by `server.upgrade()` (the fetch handler then answers nothing).
 */
export class BunUpgrade implements UpgradeTransport {
  /** What the fetch handler gives Bun: the refusal, or nothing once upgraded. */
  readonly answer: Promise<Response | undefined>;
  private settle!: (answer: Response | undefined) => void;
  private readonly webRequest: Request;
  private readonly server: BunUpgrader;
  private readonly request: HttpRequest;
  private readonly toWeb: (response: HttpResponse) => Response;

  constructor(
    webRequest: Request,
    server: BunUpgrader,
    request: HttpRequest,
    toWeb: (response: HttpResponse) => Response,
  ) {
    this.webRequest = webRequest;
    this.server = server;
    this.request = request;
    this.toWeb = toWeb;
    this.answer = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  refuse(response: HttpResponse): void {
    // A refusal ends the client's attempt: Bun closes the connection after it, as Node does, rather than
    // keeping it alive until its idle timeout (a flood of refused upgrades would hold a descriptor each).
    response.headers.connection = "close";
    this.settle(this.toWeb(response));
  }

  ready(): Promise<void> {
    return Promise.resolve();
  }

  open(
    route: { socketDescription: { maxPayload: number } },
    headers: Readonly<Record<string, string>>,
  ): OpenedPeer | undefined {
    // Bun no longer tells an upgraded request's address: read now, kept by the request.
    void this.request.client;
    const peer = new BunPeer(route.socketDescription.maxPayload);
    // Bun names the first subprotocol the client offers in the 101 itself, as ws does on Node.
    const upgraded = this.server.upgrade(this.webRequest, { data: peer, headers: { ...headers } });
    this.settle(undefined);
    // Bun opens the socket within upgrade(): a peer without one is a client gone meanwhile.
    return upgraded && peer.readyState !== CLOSED ? { peer } : undefined;
  }

  abandon(): void {
    this.settle(new Response(null, { status: 500, headers: { connection: "close" } }));
  }
}
