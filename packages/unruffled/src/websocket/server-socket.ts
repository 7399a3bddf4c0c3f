import type { Duplex } from "node:stream";
import { DEFAULT_BODY_LIMITS } from "../http/body-limits.ts";
import type { HttpRequest } from "../http/request.ts";
import type { PubSub, Unsubscribe } from "../pubsub/pubsub.ts";
import type { WebSocketDescription } from "./description.ts";
import { readInbound } from "./inbound.ts";
import type { PeerSocket } from "./load-ws.ts";
import type { ServerWebSocket, WebSocketClose } from "./server-socket-types.ts";

const OPEN = 1;

// Inbound messages the handler has not taken yet: past the high count the peer's socket is paused
// (TCP then slows the peer down), below the low count it reads again.
const QUEUE_HIGH = 32;
const QUEUE_LOW = 8;

// What one turn's sends may hold back before they are written: many small messages share a write,
// and a burst of any length starts leaving once it reaches this.
const CORK_LIMIT = 64 * 1024;

/** Close codes (RFC 6455 §7.4.1) this room sends. */
export const CLOSE = {
  normal: 1000,
  goingAway: 1001,
  unsupportedData: 1003,
  invalidPayload: 1007,
  internalError: 1011,
  tryAgainLater: 1013,
} as const;

/**
 * One open socket of a route, as its handler sees it (`ServerWebSocket`): inbound messages checked
 * and queued for the handler's loop, outbound ones written through the route's model, with the
 * route's backpressure policy.
 */
export class ServerSocket implements ServerWebSocket<unknown, unknown> {
  readonly request: HttpRequest;
  readonly done: Promise<WebSocketClose>;
  /** Pings sent since the last pong: the heartbeat cuts the socket at two. */
  unanswered = 0;
  private readonly peer: PeerSocket;
  private readonly description: WebSocketDescription;
  private readonly queue: unknown[] = [];
  private paused = false;
  private takers: ((result: IteratorResult<unknown>) => void) | undefined;
  private ended = false;
  private controller: AbortController | undefined;
  /** `send()`s waiting for the buffer to fall below the low-water mark. */
  private drainWaiters: ((sent: boolean) => void)[] = [];
  private readonly closedWith: (close: WebSocketClose) => void;
  // A write that failed (the connection is gone) drained nothing: the sends waiting on it get false.
  private readonly onFlushed = (error?: Error | null): void =>
    error ? this.releaseWaiters(false) : this.checkDrained();
  /** The connection under the peer, corked while a turn of the event loop sends (see `cork()`). */
  private readonly connection: Duplex | undefined;
  private corked = false;
  private readonly uncork = (): void => {
    this.corked = false;
    this.connection!.uncork();
  };

  /** The topics this socket follows, with how to stop; made on the first `subscribe()`. */
  private topics: Map<string, Promise<Unsubscribe>> | undefined;
  private readonly pubsub: () => PubSub;

  constructor(
    peer: PeerSocket,
    description: WebSocketDescription,
    request: HttpRequest,
    pubsub: () => PubSub,
    connection?: Duplex,
  ) {
    this.peer = peer;
    this.connection = connection;
    this.pubsub = pubsub;
    this.description = description;
    this.request = request;
    let resolve!: (close: WebSocketClose) => void;
    this.done = new Promise((settle) => {
      resolve = settle;
    });
    this.closedWith = resolve;
    peer.on("message", (data, isBinary) => this.receive(data, isBinary));
    peer.on("pong", () => {
      this.unanswered = 0;
    });
    // ws closes the socket itself on a protocol error (1002, 1007, 1009) and reports it here first.
    peer.on("error", () => {});
    peer.on("close", (code, reason) => this.closed_(code, reason.toString()));
  }

  get closed(): boolean {
    // A connection already destroyed, or whose write failed, is closed though ws has not said so yet:
    // ws learns it from the connection's events, which Node emits on a later tick (a failed write
    // only marks the connection errored, and the next writes fail as well, each taking its bytes off
    // the buffer). A loop of sends that resolve at once would starve those ticks, and the whole
    // server, for good: seen on Node when the peer resets the connection while a route sends.
    return (
      this.ended ||
      this.peer.readyState !== OPEN ||
      (this.connection !== undefined && (this.connection.destroyed || this.connection.errored !== null))
    );
  }

  get bufferedAmount(): number {
    return this.peer.bufferedAmount;
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.ended) this.controller.abort(new Error("The WebSocket closed"));
    }
    return this.controller.signal;
  }

  send(message: unknown): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    const { onBackpressure } = this.description;
    if (this.pastHighWaterMark()) {
      if (onBackpressure === "drop") return Promise.resolve(false);
      if (onBackpressure === "close") {
        this.close(CLOSE.tryAgainLater, "The client reads too slowly");
        return Promise.resolve(false);
      }
    }
    // What the handler passes is written through the outbound model: undeclared fields never leave.
    const text = this.description.writeOutbound(message);
    this.cork();
    const buffered = this.peer.bufferedAmount;
    // Only writes made above the low mark need to say when they are flushed: below it nobody waits.
    if (buffered > this.description.lowWaterMark) this.peer.send(text, this.onFlushed);
    else this.peer.send(text);
    if (onBackpressure !== "wait" || !this.pastHighWaterMark()) return Promise.resolve(true);
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  subscribe(topic: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.topics ??= new Map();
    // Subscribed once per topic, however often asked: each message reaches the socket once.
    let subscribed = this.topics.get(topic);
    if (subscribed === undefined) {
      subscribed = this.pubsub().subscribe(topic, this.forward);
      this.topics.set(topic, subscribed);
      subscribed.catch(() => this.topics?.delete(topic));
    }
    return subscribed.then(() => undefined);
  }

  async unsubscribe(topic: string): Promise<void> {
    const subscribed = this.topics?.get(topic);
    if (subscribed === undefined) return;
    this.topics!.delete(topic);
    await (await subscribed)();
  }

  /** Ends every subscription; the app calls it once the socket closed. */
  async release(): Promise<void> {
    const topics = this.topics;
    if (topics === undefined) return;
    this.topics = undefined;
    await Promise.all(
      [...topics.values()].map((subscribed) =>
        subscribed.then(
          (end) => end(),
          () => {},
        ),
      ),
    );
  }

  /** A topic's message, written as published (`publish()` wrote it through the model once). */
  private readonly forward = (text: string): void => {
    if (this.closed) return;
    if (this.pastHighWaterMark()) {
      if (this.description.onBackpressure !== "drop") {
        this.close(CLOSE.tryAgainLater, "The client reads too slowly");
      }
      return;
    }
    // A broadcast that falls behind delivers several messages in one turn: one write for them all.
    this.cork();
    this.peer.send(text);
  };

  close(code: number = CLOSE.normal, reason = ""): void {
    if (this.ended) return;
    this.peer.close(code, reason);
    this.wake();
  }

  /** Cuts the connection without a closing handshake: a dead peer, or the app's deadline. */
  terminate(): void {
    this.peer.terminate();
  }

  /** Sends a ping; the heartbeat cuts a socket that answered none of the last two. */
  ping(): void {
    this.unanswered++;
    this.peer.ping();
  }

  [Symbol.asyncIterator](): AsyncIterator<unknown> {
    return {
      next: () => this.take(),
      return: async () => {
        // A handler that leaves its loop early is done with the inbound side; the socket stays open.
        this.queue.length = 0;
        return { done: true, value: undefined };
      },
    };
  }

  private take(): Promise<IteratorResult<unknown>> {
    if (this.queue.length > 0) {
      const value = this.queue.shift();
      // A closed socket keeps what it queued for the handler, but has nothing left to read.
      if (this.paused && this.queue.length <= QUEUE_LOW && !this.ended) {
        this.paused = false;
        this.peer.resume();
      }
      return Promise.resolve({ done: false, value });
    }
    if (this.closed) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve) => {
      this.takers = resolve;
    });
  }

  private receive(data: Buffer | ArrayBuffer | Buffer[] | string, isBinary: boolean): void {
    if (this.closed) return;
    if (isBinary) {
      this.close(CLOSE.unsupportedData, "Binary messages are not accepted; send JSON text");
      return;
    }
    // ws hands a Buffer (its default binaryType), Bun a string: used as they are, not copied.
    const message =
      typeof data === "string" || Buffer.isBuffer(data)
        ? data
        : Array.isArray(data)
          ? Buffer.concat(data)
          : Buffer.from(data);
    const result = readInbound(
      message,
      this.description.inbound,
      this.request.limits.jsonDepth ?? DEFAULT_BODY_LIMITS.jsonDepth,
      this.description.inboundUncheckedNumbers,
    );
    if (!result.ok) {
      // One error message listing the issues, outside the outbound model: the 422 body of a message.
      this.peer.send(JSON.stringify({ detail: result.issues }));
      if (this.description.onInvalid === "close") {
        this.close(CLOSE.invalidPayload, "The message does not match its model");
      }
      return;
    }
    const taker = this.takers;
    if (taker !== undefined) {
      this.takers = undefined;
      taker({ done: false, value: result.value });
      return;
    }
    this.queue.push(result.value);
    if (!this.paused && this.queue.length >= QUEUE_HIGH) {
      this.paused = true;
      this.peer.pause();
    }
  }

  /**
   * Holds this turn's writes until the next tick: a handler that answers a burst of messages (they
   * arrive several to a TCP read) sends its answers in one write instead of one system call each.
   * Node's own pattern for `cork()`; the tick comes after the promise jobs of the turn. A turn that
   * holds `CORK_LIMIT` bytes writes them at once and goes on holding: a long synchronous burst (a
   * broadcast far behind its schedule) reaches the client as it is made, not all at the turn's end.
   */
  private cork(): void {
    const connection = this.connection;
    if (connection === undefined) return;
    if (this.corked) {
      if (connection.writableLength >= CORK_LIMIT) {
        connection.uncork();
        connection.cork();
      }
      return;
    }
    this.corked = true;
    connection.cork();
    process.nextTick(this.uncork);
  }

  /**
   * Whether the peer holds its high-water mark of unsent bytes. Bytes held back only by this
   * turn's cork are no sign of a slow reader: they are handed to the connection first, and what it
   * does not take counts.
   */
  private pastHighWaterMark(): boolean {
    const { highWaterMark } = this.description;
    if (this.peer.bufferedAmount < highWaterMark) return false;
    if (this.corked) this.uncork();
    return this.peer.bufferedAmount >= highWaterMark;
  }

  private checkDrained(): void {
    if (this.drainWaiters.length === 0 || this.peer.bufferedAmount > this.description.lowWaterMark) return;
    this.releaseWaiters(true);
  }

  private releaseWaiters(sent: boolean): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve(sent);
  }

  private closed_(code: number, reason: string): void {
    this.ended = true;
    // The messages that arrived before the close stay queued: the handler's loop still yields
    // them (a client's last message before it closes), then ends.
    this.wake();
    this.releaseWaiters(false);
    this.controller?.abort(new Error("The WebSocket closed"));
    this.closedWith({ code, reason });
  }

  /** Ends a pending `next()` once the socket is closing: the handler's loop ends. */
  private wake(): void {
    const taker = this.takers;
    if (taker === undefined) return;
    this.takers = undefined;
    taker({ done: true, value: undefined });
  }
}
