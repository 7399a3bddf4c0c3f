import { connect, createServer, type Socket } from "node:net";

/** A TCP server in place of a store or broker's server, for the ways such a server goes silent. */
export interface SilentRelay {
  /** The loopback port it listens on. */
  readonly port: number;
  /** How many connections it accepted so far. */
  readonly connections: number;
  /** When it accepted each connection (`performance.now()`): a client's attempts to connect, in order. */
  readonly acceptedAt: readonly number[];
  /** Keeps every connection open and passes nothing either way, until `unmute()`. */
  mute(): void;
  unmute(): void;
  /** Drops every connection and relays no more: a client that connects again gets no answer. */
  silence(): void;
  close(): Promise<void>;
}

/**
 * A TCP server that takes connections and never answers, as a server does that is overloaded, cut
 * off mid-connection, or another service on its port; with `relayTo`, it passes the bytes to that
 * loopback port (a real Redis or PostgreSQL) until it is muted or silenced, and a side that closes
 * (the server stopped, the client left) closes the other. `watch` is made for each connection and
 * sees the bytes the client sends, as they come.
 *
 * @example const relay = await silentRelay(redis.port); relay.mute(); // the next command is never answered
 */
export async function silentRelay(
  relayTo?: number,
  watch?: () => (clientBytes: Buffer) => void,
): Promise<SilentRelay> {
  let relaying = relayTo !== undefined;
  let muted = false;
  let connections = 0;
  const acceptedAt: number[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    connections++;
    acceptedAt.push(performance.now());
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
    if (!relaying || relayTo === undefined) return;
    const upstream = connect(relayTo, "127.0.0.1");
    sockets.add(upstream);
    upstream.on("error", () => socket.destroy());
    upstream.on("close", () => {
      sockets.delete(upstream);
      socket.destroy();
    });
    socket.on("close", () => upstream.destroy());
    const watcher = watch?.();
    socket.on("data", (chunk) => {
      watcher?.(chunk);
      if (!muted) upstream.write(chunk);
    });
    upstream.on("data", (chunk) => muted || socket.write(chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    get connections() {
      return connections;
    },
    acceptedAt,
    mute() {
      muted = true;
    },
    unmute() {
      muted = false;
    },
    silence() {
      relaying = false;
      for (const socket of sockets) socket.destroy();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
