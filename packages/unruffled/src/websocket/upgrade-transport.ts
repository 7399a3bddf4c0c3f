import type { Duplex } from "node:stream";
import type { HttpResponse } from "../http/response.ts";
import type { BuiltWebSocketRoute } from "./built-route.ts";
import type { PeerSocket } from "./load-ws.ts";

/** A socket a handshake opened: the peer, and on Node the connection under it (corked per turn). */
export interface OpenedPeer {
  peer: PeerSocket;
  connection?: Duplex;
}

/**
 * How an upgrade request arrived and how its outcome leaves: Node's `upgrade` event (the raw
 * connection, `ws` for the handshake) or a runtime server that opens WebSockets itself (Bun.serve).
 * The route's checks, parameters and dependencies are the same for both (WebSocketUpgrades).
 */
export interface UpgradeTransport {
  /** Answers the upgrade with an HTTP response (a 401, a 404, a 503) instead of 101; no socket opens. */
  refuse(response: HttpResponse): void;
  /** Resolves once the handshake of `route` can be made (on Node, once `ws` is loaded). */
  ready(route: BuiltWebSocketRoute): Promise<void>;
  /**
   * Makes the handshake, its 101 carrying `headers` too (the request id): the open socket, or
   * undefined when the client left meanwhile.
   */
  open(route: BuiltWebSocketRoute, headers: Readonly<Record<string, string>>): OpenedPeer | undefined;
  /** Gives up on the request without an answer (the error handler itself failed). */
  abandon(): void;
}
