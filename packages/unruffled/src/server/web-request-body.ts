import { PayloadTooLargeError } from "../errors.ts";
import {
  type BodySource,
  ClientAbortedError,
  rethrowWebBodyFailure,
  type TextCallback,
  WebBodySource,
  webBodyFailure,
} from "../http/body.ts";
import type { Readable } from "../node-builtins.ts";
import { currentRuntime } from "./runtime.ts";

// Bun reads a body as text faster than as bytes (`text()` against `arrayBuffer()`, then decoding:
// about 15 % of a small validated JSON POST, in bench/fetch-overhead.ts); Deno and Node do not.
const TEXT_READS = currentRuntime() === "bun";

/**
 * The body of a web `Request`, touched only when the endpoint reads it. A body whose announced
 * `Content-Length` is within the limit is read in one call (`arrayBuffer()`: Bun and Deno read it
 * natively, with no stream and no chunk per read); any other body (chunked, or larger than the
 * limit) goes through the stream reader of `WebBodySource`, which stops at the limit. On Bun, a
 * body the app reads as text (JSON) is read with `text()`.
 *
 * @example new WebRequestBody(webRequest, webRequest.headers)
 */
export class WebRequestBody implements BodySource {
  private readonly request: Request;
  private readonly headers: Headers;
  // The announced length, read on first use: a request whose route reads no body never asks
  // (null: not read yet).
  private announced: number | undefined | null = null;
  private streamed: WebBodySource | undefined;
  private refused = false;
  // The text read ahead by the server (see hold()), or why reading it failed.
  private held = false;
  private heldText: string | undefined;
  private heldError: unknown;
  // The request's deadline (`performance.now()` at its arrival plus `request_timeout`), on a server
  // that holds bodies to it (Deno's); the timer runs only while a read is pending.
  private readonly dueAt: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private late = false;
  // Fails the pending read once the deadline passed (the runtime's own read goes on unseen).
  private failPending: ((error: Error) => void) | undefined;
  private readingStream: Readable | undefined;
  /** Told once, when the deadline passes before the body is in: the server answers 408. */
  onLate: (() => void) | undefined;

  constructor(request: Request, headers: Headers, dueAt?: number) {
    this.request = request;
    this.headers = headers;
    this.dueAt = dueAt;
  }

  /** The `Content-Length` the client announced, if any. */
  get length(): number | undefined {
    if (this.announced === null) {
      const header = this.headers.get("content-length");
      this.announced = header === null ? undefined : Number(header);
    }
    return this.announced;
  }

  get abandoned(): boolean {
    return this.refused || (this.streamed?.abandoned ?? false);
  }

  read(limit: number): Promise<Buffer> {
    if (this.dueAt === undefined) return this.readNow(limit);
    // Through the stream's reader, not arrayBuffer(): a late body's read is then cancelled, which
    // arrayBuffer() does not allow (it would stay pending until the client leaves).
    return this.beforeDeadline(this.held ? this.readNow(limit) : this.stream().read(limit));
  }

  private async readNow(limit: number): Promise<Buffer> {
    if (this.held) return Buffer.from(await this.heldOutcome(), "utf8");
    const length = this.length;
    if (length === undefined || !(length <= limit)) return this.stream().read(limit);
    const bytes = Buffer.from(await this.request.arrayBuffer().catch(rethrowWebBodyFailure));
    // The runtime holds the client to its Content-Length; this only guards against one that does not.
    if (bytes.byteLength > limit) {
      this.refused = true;
      throw new PayloadTooLargeError(`Request body is larger than the limit of ${limit} bytes`, limit);
    }
    return bytes;
  }

  readText(limit: number): Promise<string> | undefined {
    if (this.held) return this.heldOutcome();
    if (!this.readsTextWithin(limit)) return undefined;
    return this.request.text().then((text) => this.checkedText(text, limit), rethrowWebBodyFailure);
  }

  /**
   * Whether the body is read as text in one call within `limit`: on Bun, with an announced length
   * within it. What `readText()` reads rather than handing the caller over to `read()`.
   */
  readsTextWithin(limit: number): boolean {
    const length = this.length;
    return TEXT_READS && length !== undefined && length <= limit;
  }

  /**
   * Keeps the body's text that the server read before the route ran (`await request.text()` in its
   * own handler, see answerFixedJson), or the error that reading it met: every later read gives the
   * same, and `collectHeldText` hands it over at once. Refused with 413 past `limit`, as `readText`.
   */
  hold(text: string | undefined, error: unknown, limit: number): void {
    this.held = true;
    if (text === undefined) {
      this.heldError = webBodyFailure(error);
      return;
    }
    try {
      this.heldText = this.checkedText(text, limit);
    } catch (tooLarge) {
      this.heldError = tooLarge;
    }
  }

  collectHeldText(done: TextCallback): boolean {
    if (!this.held) return false;
    if (this.heldText === undefined) done(this.heldError as Error, undefined);
    else done(undefined, this.heldText);
    return true;
  }

  private heldOutcome(): Promise<string> {
    return this.heldText === undefined ? Promise.reject(this.heldError) : Promise.resolve(this.heldText);
  }

  // The runtime holds the client to its Content-Length, this only guards against one that does not.
  // A character is at least one byte, and at most three of UTF-8 per unit.
  private checkedText(text: string, limit: number): string {
    if (text.length > limit || (text.length * 3 > limit && Buffer.byteLength(text) > limit)) {
      this.refused = true;
      throw new PayloadTooLargeError(`Request body is larger than the limit of ${limit} bytes`, limit);
    }
    return text;
  }

  readable(): Readable {
    const readable = this.stream().readable();
    if (this.dueAt === undefined) return readable;
    if (this.late) readable.destroy(new ClientAbortedError());
    else {
      this.readingStream = readable;
      this.arm();
      readable.once("end", () => this.disarm()).once("close", () => this.disarm());
    }
    return readable;
  }

  /**
   * Whether the deadline is still ahead; from now on it no longer counts (the app answered): false
   * once it passed, when the server answered 408 instead.
   */
  answeredInTime(): boolean {
    this.disarm();
    return !this.late;
  }

  /** `reading`, failed as a client gone if the body is not in by the deadline (the runtime's read is left to end). */
  private beforeDeadline<T>(reading: Promise<T>): Promise<T> {
    if (this.late) {
      reading.catch(() => {});
      return Promise.reject(new ClientAbortedError());
    }
    this.arm();
    return new Promise<T>((resolve, reject) => {
      this.failPending = reject;
      reading.then(
        (value) => {
          this.disarm();
          resolve(value);
        },
        (error: unknown) => {
          this.disarm();
          reject(error);
        },
      );
    });
  }

  private arm(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => this.passDeadline(), Math.max(0, this.dueAt! - performance.now()));
  }

  private disarm(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  // As on Node, where the 408 destroys the connection under a pending read: the read fails with the
  // client gone.
  private passDeadline(): void {
    this.timer = undefined;
    this.late = true;
    this.onLate?.();
    this.failPending?.(new ClientAbortedError());
    this.readingStream?.destroy(new ClientAbortedError());
    this.streamed?.abandon();
  }

  abandon(): void {
    this.stream().abandon();
  }

  private stream(): WebBodySource {
    this.streamed ??= new WebBodySource(
      this.request.body,
      this.length === undefined ? null : String(this.length),
    );
    return this.streamed;
  }
}
