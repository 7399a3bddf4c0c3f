import { createServer, type Server, type Socket } from "node:net";

/** What a hostile server does with one request: it writes whatever bytes it likes, or nothing. */
export type HostileAnswer = (socket: Socket, request: { method: string; target: string }) => void;

/** A server on loopback that answers HTTP with raw bytes: the proxies and servers that misbehave. */
export interface HostileServer {
  url: string;
  port: number;
  /** Connections the server holds open now. */
  openConnections(): number;
  /** How many requests reached it, by target. */
  requests(target: string): number;
  close(): Promise<void>;
}

/**
 * Starts a raw HTTP server whose answer to each request target is the function given for it (the
 * query string included in the target); an unknown target gets a plain 404 and a close.
 *
 * @example const server = await startHostileServer({ "/stall": () => {} });
 */
export async function startHostileServer(
  answers: Readonly<Record<string, HostileAnswer>>,
): Promise<HostileServer> {
  const open = new Set<Socket>();
  const counts = new Map<string, number>();
  const server: Server = createServer((socket) => {
    open.add(socket);
    socket.on("close", () => open.delete(socket));
    socket.on("error", () => {});
    let head = "";
    const onData = (chunk: Buffer) => {
      head += chunk.toString("latin1");
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      socket.off("data", onData);
      const [method = "", target = ""] = head.slice(0, head.indexOf("\r\n")).split(" ");
      counts.set(target, (counts.get(target) ?? 0) + 1);
      head = "";
      const answer = answers[target];
      if (answer === undefined)
        socket.end("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      else answer(socket, { method, target });
    };
    socket.on("data", onData);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    openConnections: () => open.size,
    requests: (target) => counts.get(target) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A whole HTTP/1.1 answer that closes its connection, its length counted. */
export function answer(status: string, headers: Readonly<Record<string, string>>, body = ""): string {
  const lines = [`HTTP/1.1 ${status}`, "Connection: close"];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (!("Content-Length" in headers)) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join("\r\n")}\r\n\r\n${body}`;
}
