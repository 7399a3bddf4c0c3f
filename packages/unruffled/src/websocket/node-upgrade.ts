import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { HttpResponse } from "../http/response.ts";
import type { BuiltWebSocketRoute } from "./built-route.ts";
import type { PeerServer, PeerSocket } from "./load-ws.ts";
import { refuseUpgrade } from "./refuse.ts";
import type { OpenedPeer, UpgradeTransport } from "./upgrade-transport.ts";

/**
 * An upgrade from Node's `upgrade` event: refused by writing an HTTP answer on the raw connection,
 * accepted by `ws`, which writes the 101 and frames the connection.
 */
export class NodeUpgrade implements UpgradeTransport {
  private readonly message: IncomingMessage;
  private readonly socket: Duplex;
  private readonly head: Buffer;
  private readonly serverFor: (route: BuiltWebSocketRoute) => Promise<PeerServer>;
  private server: PeerServer | undefined;

  constructor(
    message: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    serverFor: (route: BuiltWebSocketRoute) => Promise<PeerServer>,
  ) {
    this.message = message;
    this.socket = socket;
    this.head = head;
    this.serverFor = serverFor;
  }

  refuse(response: HttpResponse): void {
    refuseUpgrade(this.socket, response);
  }

  async ready(route: BuiltWebSocketRoute): Promise<void> {
    this.server = await this.serverFor(route);
  }

  open(_route: BuiltWebSocketRoute, headers: Readonly<Record<string, string>>): OpenedPeer | undefined {
    const { socket, message } = this;
    const server = this.server!;
    // A connection gone while the dependencies resolved is destroyed instead.
    if (!socket.readable || !socket.writable) {
      socket.destroy();
      return undefined;
    }
    const addHeaders = (lines: string[], request: unknown) => {
      if (request === message)
        for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    };
    // ws answers synchronously once its checks passed, and emits `headers` as it writes the 101.
    let peer: PeerSocket | undefined;
    server.on("headers", addHeaders);
    try {
      server.handleUpgrade(message, socket, this.head, (accepted) => {
        peer = accepted;
      });
    } finally {
      server.off("headers", addHeaders);
    }
    return peer === undefined ? undefined : { peer, connection: socket };
  }

  abandon(): void {
    this.socket.destroy();
  }
}
