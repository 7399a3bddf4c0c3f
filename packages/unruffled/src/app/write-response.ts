import type { ServerResponse } from "node:http";
import { Readable } from "../builtins.ts";
import type { HttpRequest } from "../http/request.ts";
import { checkedStatus, type HttpResponse } from "../http/response.ts";

/**
 * Writes a response to Node. Content-Length is computed here so that Node does not fall back to
 * chunked encoding; HEAD gets the headers only. A request whose body was refused part-way closes
 * its connection after the answer, so the unread rest is never read.
 */
export function writeNodeResponse(res: ServerResponse, response: HttpResponse, request: HttpRequest): void {
  // Node would send a 1xx as if informational and leave the client waiting: refused like a bad header.
  checkedStatus(response.status);
  const headers = response.headers as Record<string, string | string[]>;
  const body = response.body;
  if (request.bodySource.abandoned) headers.connection = "close";
  if (body instanceof Readable) {
    res.writeHead(response.status, headers);
    if (request.method === "HEAD") {
      body.destroy();
      res.end();
    } else {
      body.on("error", () => res.destroy());
      body.pipe(res);
    }
    return;
  }
  if (body !== null && headers["content-length"] === undefined) {
    headers["content-length"] = String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
  }
  res.writeHead(response.status, headers);
  res.end(request.method === "HEAD" || body === null ? undefined : body);
}

/** The same response as a web-standard `Response`. */
export function toWebResponse(response: HttpResponse, request: HttpRequest): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else for (const item of value) headers.append(name, item);
  }
  const body = response.body;
  if (request.method === "HEAD" || body === null || response.status === 204 || response.status === 304) {
    if (body instanceof Readable) body.destroy();
    return new Response(null, { status: response.status, headers });
  }
  const webBody =
    body instanceof Readable
      ? (Readable.toWeb(body) as unknown as ReadableStream<Uint8Array>)
      : (body as string | Uint8Array<ArrayBuffer>);
  return new Response(webBody, { status: response.status, headers });
}
