import type { HttpResponse } from "../http/response.ts";
import { Readable } from "../node-builtins.ts";

/**
 * What the test client got back: status, headers and body as a client on the wire would see them.
 * `T` is the documented body type (from the endpoint's `ResponseSpec` models) when known.
 *
 * @example
 * const response = await client.get("/hello");
 * expect([response.status, response.text]).toEqual([200, "Hello, World!"]);
 */
export class TestResponse<T = unknown> {
  readonly status: number;
  /** Lower-case names; `headers.getSetCookie()` lists every `Set-Cookie`. */
  readonly headers: Headers;
  /** The body bytes (empty for HEAD, as on the wire). */
  readonly body: Buffer;
  /** The body decoded as UTF-8. */
  readonly text: string;
  /** The response object the app returned, e.g. a `JsonResponse` with its `data`. */
  readonly response: HttpResponse;

  constructor(response: HttpResponse, headers: Headers, body: Buffer) {
    this.status = response.status;
    this.headers = headers;
    this.body = body;
    this.text = body.toString("utf8");
    this.response = response;
  }

  /**
   * The body parsed as JSON; typed as the endpoint's documented models unless a type is given.
   * Throws, quoting the body, when it is not JSON.
   */
  json<U = T>(): U {
    try {
      return JSON.parse(this.text) as U;
    } catch {
      throw new SyntaxError(
        `The response body is not JSON (status ${this.status}): ${this.text.slice(0, 200)}`,
      );
    }
  }
}

/**
 * Reads an app's response the way Node's writer sends it: `content-length` for a complete body,
 * streams read to the end, no body for HEAD.
 */
export async function readResponse(response: HttpResponse, method: string): Promise<TestResponse> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else for (const item of value) headers.append(name, item);
  }
  const body = response.body;
  if (body !== null && !(body instanceof Readable) && !headers.has("content-length")) {
    headers.set(
      "content-length",
      String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength),
    );
  }
  if (method === "HEAD" || body === null) {
    if (body instanceof Readable) body.destroy();
    return new TestResponse(response, headers, Buffer.alloc(0));
  }
  if (typeof body === "string") return new TestResponse(response, headers, Buffer.from(body));
  if (!(body instanceof Readable)) {
    return new TestResponse(response, headers, Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  }
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return new TestResponse(response, headers, Buffer.concat(chunks));
}
