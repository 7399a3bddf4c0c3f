import { type HttpResponse, statusHasNoBody } from "../http/response.ts";
import { PassThrough, Readable } from "../node-builtins.ts";
import { type ReceivedEvent, readEvents } from "./read-events.ts";

// Type-only keys of the body and event types: `json()` and `events()` read them from `this`, so that
// on a union of answers they give the union's (or, once `status` narrowed it, one answer's) types.
declare const BODY: unique symbol;
declare const EVENTS: unique symbol;

/**
 * What the test client got back: status, headers and body as a client on the wire would see them.
 * `T` is the body's type as it travels (`JsonForm` of the endpoint's `ResponseSpec` model for status
 * `S`; a date is a string), `E` the data of its events; `call()` answers a union of these, one per
 * declared status, that a check of `status` narrows.
 *
 * @example
 * const response = await client.get("/hello");
 * expect([response.status, response.text]).toEqual([200, "Hello, World!"]);
 */
export class TestResponse<T = unknown, S extends number = number, E = T> {
  readonly status: S;
  /** Type-level only: the body's type, for `json()`. */
  declare readonly [BODY]: T;
  /** Type-level only: the events' data type, for `events()`. */
  declare readonly [EVENTS]: E;
  /** Lower-case names; `headers.getSetCookie()` lists every `Set-Cookie`. */
  readonly headers: Headers;
  /** The body bytes (empty for HEAD, as on the wire). */
  readonly body: Buffer;
  /** The body decoded as UTF-8. */
  readonly text: string;
  /** The response object the app returned, e.g. a `JsonResponse` with its `data`. */
  readonly response: HttpResponse;
  /**
   * An event stream: read from the app as a socket would (at once, up to its buffer), its events
   * handed over as they are asked for; `body` and `text` stay empty.
   */
  private readonly stream: Readable | undefined;
  private readonly hangUp: (() => void) | undefined;

  constructor(
    response: HttpResponse,
    headers: Headers,
    body: Buffer,
    stream?: Readable,
    hangUp?: () => void,
  ) {
    this.status = response.status as S;
    this.headers = headers;
    this.body = body;
    this.text = body.toString("utf8");
    this.response = response;
    this.stream = stream;
    this.hangUp = hangUp;
  }

  /**
   * The events of a `text/event-stream` answer, as they come, typed as the endpoint's documented
   * event model; it ends when the stream ends. Leaving the loop early keeps the stream open:
   * `close()` hangs up.
   *
   * @example
   * const response = await client.call(courseEvents, { course_id: 1 });
   * for await (const event of response.events()) if (event.data.seats_left === 0) break;
   * response.close();
   */
  events<Self extends { readonly [EVENTS]: unknown }>(
    this: Self,
  ): AsyncGenerator<ReceivedEvent<Self[typeof EVENTS]>, void, undefined>;
  events(): AsyncGenerator<ReceivedEvent, void, undefined> {
    if (this.stream === undefined) {
      throw new TypeError(
        `The answer is not an event stream (status ${this.status}, ${this.headers.get("content-type")})`,
      );
    }
    const stream = this.stream;
    return readEvents({
      [Symbol.asyncIterator]: () => stream.iterator({ destroyOnReturn: false }),
    });
  }

  /** Hangs up an event stream, as a client that goes away: its source is closed, `request.signal` aborts. */
  close(): void {
    this.hangUp?.();
    this.stream?.destroy();
    if (this.response.body instanceof Readable) this.response.body.destroy();
  }

  /**
   * The body parsed as JSON, typed as the documented model of the answer's status in its JSON form
   * (after `if (response.status === 404)`, the 404 model), unless a type is given: `json<MyBody>()`.
   * Throws, quoting the body, when it is not JSON.
   */
  json<Self extends { readonly [BODY]: unknown }>(this: Self): Self[typeof BODY];
  json<U>(): U;
  json(): unknown {
    try {
      return JSON.parse(this.text);
    } catch {
      throw new SyntaxError(
        `The response body is not JSON (status ${this.status}): ${this.text.slice(0, 200)}`,
      );
    }
  }
}

/**
 * Reads an app's response the way Node's writer sends it: `content-length` for a complete body,
 * streams read to the end, an event stream read from at once (as a socket reads it, so that its
 * source starts before the test asks for an event), no body for HEAD. `hangUp` tells the app that
 * the client went away; `sent` runs once the whole body was read (or dropped), as Node's `close`
 * event does on a server: the request's work after the answer waits for it.
 */
export async function readResponse(
  response: HttpResponse,
  method: string,
  hangUp?: () => void,
  sent: () => void = () => {},
): Promise<TestResponse> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else for (const item of value) headers.append(name, item);
  }
  // A 204 or 304 ends after its head, as Node writes it: no body, and no length made up for one.
  const noBody = statusHasNoBody(response.status);
  const body = response.body;
  if (body !== null && !noBody && !(body instanceof Readable) && !headers.has("content-length")) {
    headers.set(
      "content-length",
      String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength),
    );
  }
  if (body === null && !noBody && !headers.has("content-length")) {
    headers.set("content-length", "0");
  }
  // A stream of unknown length goes out in chunks on HTTP/1.1, and the answer says so.
  if (body instanceof Readable && method !== "HEAD" && !noBody && !headers.has("content-length")) {
    headers.set("transfer-encoding", "chunked");
  }
  // As a client on a socket reads an answer typed as an event stream: event by event, whatever its body.
  const eventStream = headers.get("content-type")?.startsWith("text/event-stream") === true;
  if (method === "HEAD" || body === null || noBody) {
    if (body instanceof Readable) body.destroy();
    sent();
    return new TestResponse(response, headers, Buffer.alloc(0), eventStream ? Readable.from([]) : undefined);
  }
  if (body instanceof Readable && eventStream) {
    // The client's buffer is 16 KiB, the writable side holds no more than the chunk in hand: an
    // endless stream no test reads is pulled that far ahead (beside its own buffer), not 3 × 64 KiB.
    const received = new PassThrough({ readableHighWaterMark: 16 * 1024, writableHighWaterMark: 0 });
    body.once("close", sent);
    body.once("error", (error) => received.destroy(cutOff(response.status, error)));
    // As `fetch` resolves with the first bytes of the answer: by then the stream's source has started.
    const firstBytes = new Promise<void>((resolve) => {
      body.once("data", () => resolve());
      body.once("close", () => resolve());
    });
    body.pipe(received);
    await firstBytes;
    return new TestResponse(response, headers, Buffer.alloc(0), received, hangUp);
  }
  if (!(body instanceof Readable)) {
    sent();
    const bytes =
      typeof body === "string"
        ? Buffer.from(body)
        : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    if (eventStream) return new TestResponse(response, headers, Buffer.alloc(0), Readable.from([bytes]));
    return new TestResponse(response, headers, bytes);
  }
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of body) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  } catch (error) {
    throw cutOff(response.status, error);
  } finally {
    sent();
  }
  return new TestResponse(response, headers, Buffer.concat(chunks));
}

/**
 * What a client sees of a body that failed part-way: the connection closed before the body's end.
 * The app's error (or the socket's) is the cause; the server's log has the app's.
 *
 * @example throw cutOff(200, error)
 */
export function cutOff(status: number, cause: unknown): Error {
  return new Error(
    `The answer's body was cut off: the server closed the connection before its end (status ${status}).`,
    { cause },
  );
}
