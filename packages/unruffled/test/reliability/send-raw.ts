import { connect } from "node:net";

/** The first answer on a connection: its status, head and body bytes. */
export interface RawAnswer {
  status: number;
  head: string;
  body: Buffer;
}

/**
 * Sends one request as raw bytes (so that nothing on the client side cleans it up) and resolves
 * with the answer once the server closed the connection, or `undefined` when it closed without
 * answering. Rejects when nothing happens within `timeoutMs`: a hang is a failure.
 */
export function sendRaw(port: number, request: Buffer, timeoutMs = 5_000): Promise<RawAnswer | undefined> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(
          `no answer within ${timeoutMs} ms to ${JSON.stringify(request.subarray(0, 200).toString("latin1"))}`,
        ),
      );
    }, timeoutMs);
    socket.on("data", (chunk) => chunks.push(chunk));
    // The server may close while the request is still being written; what it answered still counts.
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks);
      if (raw.length === 0) return resolve(undefined);
      const end = raw.indexOf("\r\n\r\n");
      const head = raw.subarray(0, end < 0 ? raw.length : end).toString("latin1");
      resolve({
        status: Number(head.slice(9, 12)),
        head,
        body: end < 0 ? Buffer.alloc(0) : raw.subarray(end + 4),
      });
    });
    socket.write(request);
  });
}

/** A request with `Connection: close`, the given headers (name → value) and an exact Content-Length. */
export function rawRequest(
  method: string,
  target: string,
  headers: Record<string, string | undefined>,
  body?: Buffer,
): Buffer {
  let head = `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n`;
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) head += `${name}: ${value}\r\n`;
  if (body !== undefined) head += `Content-Length: ${body.length}\r\n`;
  return Buffer.concat([Buffer.from(`${head}\r\n`, "latin1"), body ?? Buffer.alloc(0)]);
}
