import type { ClientOptions } from "./client-options.ts";
import { encodeCall } from "./encode-request.ts";
import { failureReason } from "./failure-reason.ts";
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
 * gives the close code as a value. Leaving a loop early (`break`, `return`, a throw) closes the
 * socket (1000), as for an event stream; reading with the iterator's `next()` leaves it open.
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

/**
 * A message the client cannot read: text that is not JSON, or a binary message. The loop over the
 * socket ends with this error (after the messages before it), and the client closes the socket.
 */
export class SocketMessageError extends Error {
  override name = "SocketMessageError";
  /** The message's text; undefined for a binary message. */
  readonly data: string | undefined;
  constructor(data: unknown) {
    super(
      typeof data === "string"
        ? `A message is not JSON: ${data.slice(0, 200)}`
        : `A message is binary (${binarySize(data)} bytes), not the JSON text the route sends.`,
    );
    this.data = typeof data === "string" ? data : undefined;
  }
}

/**
 * `connect`'s result: the open socket, or how it closed before it opened (a refused upgrade is 1006,
 * and so is a URL the platform cannot open, with the reason in words).
 */
export type SocketResult<In, Out> =
  | { ok: true; socket: ClientSocket<In, Out> }
  | { ok: false; close: SocketClose };

/** What one connection may add: headers (Node's WebSocket sends them; browsers cannot), and a signal. */
export interface SocketOptions {
  headers?: Readonly<Record<string, string>>;
  /** Closes the socket when it aborts: a connect not yet open resolves as closed (1006), an open one closes (1000). */
  signal?: AbortSignal;
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
 * rejects nor throws: a URL it cannot open (a `baseUrl` of `""` outside a page, an `ftp:` one) is a
 * close before open, 1006, the reason in words, as a call's bad URL is a `network-failure`.
 */
export function connectSocket(
  plan: SocketPlan,
  params: Readonly<Record<string, unknown>>,
  options: ClientOptions,
  socketOptions: SocketOptions,
): Promise<SocketResult<unknown, unknown>> {
  let socket: PlatformSocket;
  let href: string | undefined;
  try {
    const encoded = encodeCall({ method: "GET", path: plan.path, params: plan.params, answers: {} }, params);
    const base =
      options.baseUrl === ""
        ? (globalThis as { location?: { href: string } }).location?.href
        : options.baseUrl;
    const url = new URL(joinPath(options.baseUrl === "" ? "" : options.baseUrl, encoded.target), base);
    url.protocol = url.protocol === "https:" ? "wss:" : url.protocol === "http:" ? "ws:" : url.protocol;
    href = url.href;
    const headers = { ...encoded.headers, ...socketOptions.headers };
    const Platform = (globalThis as unknown as { WebSocket: PlatformSocketClass }).WebSocket;
    socket = openPlatformSocket(Platform, href, headers);
  } catch (error) {
    // The platform throws (Invalid URL, SyntaxError) where a connect resolves: a close before open.
    const where = href ?? `baseUrl ${JSON.stringify(options.baseUrl)}`;
    const reason = `The socket could not be opened on ${where}: ${failureReason(error)}`;
    return Promise.resolve({ ok: false, close: { code: 1006, reason, wasClean: false } });
  }
  return new Promise((resolve) => {
    const opened = new OpenSocket(socket);
    socket.addEventListener("open", () => resolve({ ok: true, socket: opened }));
    opened.closed.then((close) => resolve({ ok: false, close }));
    // An upgrade nobody answers would never open nor close: the signal is the caller's way out.
    const signal = socketOptions.signal;
    if (signal === undefined) return;
    const abort = () => socket.close(1000);
    if (signal.aborted) abort();
    else {
      signal.addEventListener("abort", abort, { once: true });
      opened.closed.then(() => signal.removeEventListener("abort", abort));
    }
  });
}

/**
 * The platform's socket, with the headers where it can send them: Node's (undici) takes
 * them in its second argument; a browser reads that argument as the subprotocols and throws
 * ("The subprotocol '[object Object]' is invalid"), so there they are left out, as a page cannot send
 * headers at all.
 */
function openPlatformSocket(
  Platform: PlatformSocketClass,
  href: string,
  headers: Readonly<Record<string, string>>,
): PlatformSocket {
  if (Object.keys(headers).length === 0) return new Platform(href);
  try {
    return new Platform(href, { headers });
  } catch {
    // A URL the platform refuses throws again here, and is told as such by the caller.
    return new Platform(href);
  }
}

/** A reader waiting in `next()`. */
interface Taker {
  resolve(result: IteratorResult<unknown>): void;
  reject(error: SocketMessageError): void;
}

class OpenSocket implements ClientSocket<unknown, unknown> {
  readonly closed: Promise<SocketClose>;
  private readonly socket: PlatformSocket;
  private readonly queue: unknown[] = [];
  /** Readers waiting in `next()`, first come first served: each gets one message, the failure, or done. */
  private readonly takers: Taker[] = [];
  private ended = false;
  /** A message could not be read: later ones are dropped, as the socket is closing. */
  private failed = false;
  /** That message's error, until the loop is given it (after the messages before it). */
  private failure: SocketMessageError | undefined;

  constructor(socket: PlatformSocket) {
    this.socket = socket;
    socket.addEventListener("message", (event: { data: unknown }) => {
      if (this.failed) return;
      const value = readMessage(event.data);
      if (value instanceof SocketMessageError) {
        // Thrown here, it would escape to the platform (an uncaught exception in Node): it ends the loop instead.
        this.failed = true;
        this.failure = value;
        this.socket.close(1000, "The client could not read a message");
        const taker = this.takers.shift();
        if (taker === undefined) return;
        // Every message before it was taken: the first reader gets the failure, the others done.
        taker.reject(this.takeFailure()!);
        this.endReaders();
        return;
      }
      const taker = this.takers.shift();
      if (taker !== undefined) taker.resolve({ done: false, value });
      else this.queue.push(value);
    });
    this.closed = new Promise((resolve) => {
      socket.addEventListener("close", (event: { code: number; reason: string; wasClean: boolean }) => {
        this.ended = true;
        // A reader waiting has read every message before: a failure still held is its turn now.
        const taker = this.takers.shift();
        const failure = taker === undefined ? undefined : this.takeFailure();
        if (failure !== undefined) taker?.reject(failure);
        else taker?.resolve({ done: true, value: undefined });
        this.endReaders();
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
        const failure = this.takeFailure();
        if (failure !== undefined) return Promise.reject(failure);
        if (this.ended) return Promise.resolve({ done: true, value: undefined });
        return new Promise((resolve, reject) => {
          this.takers.push({ resolve, reject });
        });
      },
      // A loop left early (break, return, a throw in its body): the reading is over, and so is the
      // socket, as an event stream's break cancels its body. Reading with next() never calls it.
      return: () => {
        this.ended = true;
        this.queue.length = 0;
        this.failure = undefined;
        this.endReaders();
        this.socket.close(1000);
        return Promise.resolve({ done: true, value: undefined });
      },
    };
  }

  /** The failure, once: after it the loop is over, as after a close. */
  private takeFailure(): SocketMessageError | undefined {
    const failure = this.failure;
    this.failure = undefined;
    if (failure !== undefined) this.ended = true;
    return failure;
  }

  /** Readers still waiting once the reading is over get done. */
  private endReaders(): void {
    for (const taker of this.takers.splice(0)) taker.resolve({ done: true, value: undefined });
  }
}

/** A message's JSON value, or the error for one that is not JSON text. */
function readMessage(data: unknown): unknown {
  if (typeof data !== "string") return new SocketMessageError(data);
  try {
    return JSON.parse(data);
  } catch {
    return new SocketMessageError(data);
  }
}

function binarySize(data: unknown): number {
  if (data instanceof Blob) return data.size;
  if (data instanceof ArrayBuffer) return data.byteLength;
  return ArrayBuffer.isView(data) ? data.byteLength : 0;
}

function joinPath(baseUrl: string, target: string): string {
  return baseUrl.endsWith("/") ? baseUrl.slice(0, -1) + target : baseUrl + target;
}
