import type { Duplex } from "node:stream";
import type { HttpResponse } from "../http/response.ts";
import { STATUS_CODES } from "../node-builtins.ts";

/**
 * Answers an upgrade request with an HTTP response instead of `101` (a 401, a 403, a 422), written
 * on the raw connection, which then closes: no WebSocket was opened, no handler ran.
 *
 * @example refuseUpgrade(socket, new JsonResponse({ detail: "Not Found" }, { status: 404 }))
 */
export function refuseUpgrade(socket: Duplex, response: HttpResponse): void {
  if (socket.destroyed || !socket.writable) {
    socket.destroy();
    return;
  }
  const body = response.body;
  const bytes =
    typeof body === "string" ? Buffer.from(body) : body instanceof Uint8Array ? body : Buffer.alloc(0);
  const headers: Record<string, string | string[]> = {
    ...(response.headers as Record<string, string | string[]>),
    "content-length": String(bytes.byteLength),
    connection: "close",
  };
  let head = `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ""}\r\n`;
  for (const [name, value] of Object.entries(headers)) {
    for (const each of Array.isArray(value) ? value : [value]) head += `${name}: ${each}\r\n`;
  }
  socket.write(`${head}\r\n`);
  socket.end(bytes);
}
