import type { HttpRequest } from "../http/request.ts";

/** How a socket ended: the close code and reason, as the closing frame carried them (1005/1006 without one). */
export interface WebSocketClose {
  code: number;
  reason: string;
}

/**
 * A WebSocket as a route's handler sees it: iterate it for the inbound messages (validated against
 * `inbound`; the loop ends when the socket closes), `send()` outbound ones (written through
 * `outbound`'s serializer, so undeclared fields never leave).
 *
 * @example
 * for await (const message of socket) {
 *   if (message.type === "ping") await socket.send({ type: "pong" });
 * }
 */
export interface ServerWebSocket<In, Out> extends AsyncIterable<In> {
  /** The upgrade request: its headers, id, client address. */
  readonly request: HttpRequest;
  /**
   * Sends one message. Resolves to true once it is buffered (under the `"wait"` policy, once the
   * buffer is below the low-water mark), to false when it was not sent: the socket is closed, or the
   * `"drop"` policy dropped it.
   */
  send(message: Out): Promise<boolean>;
  /** Starts the closing handshake (default 1000); iteration ends once the peer answered. */
  close(code?: number, reason?: string): void;
  /** True once the socket is closing or closed: `send()` then sends nothing. */
  readonly closed: boolean;
  /** Aborts when the socket closes, however it closes: stop work only this socket waits for. */
  readonly signal: AbortSignal;
  /** Resolves once the socket has closed, with the code and reason. */
  readonly done: Promise<WebSocketClose>;
  /** Bytes written but not yet taken by the network (the peer's reading speed). */
  readonly bufferedAmount: number;
  /**
   * Forwards every message published on `topic` (`app.pubsub`, in any process that shares the
   * broker) to this socket, once each, until `unsubscribe(topic)` or the socket closes. Resolves
   * once subscribed. Publish with `publish(app, route, topic, message)`, which writes the message
   * through the route's outbound model once. A peer too slow for a topic's messages (its buffer
   * past the high-water mark) is closed with 1013 (or, under `"drop"`, misses them): a broadcast
   * cannot wait for one reader.
   */
  subscribe(topic: string): Promise<void>;
  /** Stops forwarding `topic`; resolves once no more of its messages will arrive. */
  unsubscribe(topic: string): Promise<void>;
}
