import { PayloadTooLargeError } from "../../errors.ts";
import {
  type BodySource,
  ClientAbortedError,
  rethrowWebBodyFailure,
  type TextCallback,
  WebBodySource,
  webBodyFailure,
} from "../../http/body.ts";
import type { Readable } from "../../node-builtins.ts";
import type { ErrorBodyOf } from "../client-errors.ts";
import { currentRuntime } from "../runtime.ts";

// Bun reads a body as text faster than as bytes (`text()` against `arrayBuffer()`, then decoding:
// about 15 % of a small validated JSON POST, in bench/fetch-overhead.ts); Deno and Node do not.
const TEXT_READS = currentRuntime() === "bun";

/**
 * The request bodies a server (Deno's, which has no timeout of its own for them) holds to the app's
 * `request_timeout`: the reads pending past their request's deadline fail, and the server answers
 * 408. One timer for the server, running only while a read is pending, looks every `interval` ms
 * (a tenth of the timeout, as Node's own check): a request pays no timer of its own.
 *
 * @example inFlight.bodyDeadline = new BodyDeadlines(30_000, 1_000, errorBodyIn(false));
 */
export class BodyDeadlines {
  /** The app's `request_timeout`, counted from a request's arrival. */
  readonly timeout: number;
  /** How the app words the 408. */
  readonly errorBody: ErrorBodyOf;
  private readonly interval: number;
  private readonly pending = new Set<WebRequestBody>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(timeout: number, interval: number, errorBody: ErrorBodyOf) {
    this.timeout = timeout;
    this.interval = interval;
    this.errorBody = errorBody;
  }

  /** Checks `body` from now on, until `unwatch`. */
  watch(body: WebRequestBody): void {
    this.pending.add(body);
    this.timer ??= setTimeout(this.check, this.interval);
  }

  unwatch(body: WebRequestBody): void {
    this.pending.delete(body);
  }

  // The timer stops once nothing is pending: no timer is left behind an idle server.
  private readonly check = (): void => {
    this.timer = undefined;
    const now = performance.now();
    for (const body of this.pending) {
      if (body.dueAt! > now) continue;
      this.pending.delete(body);
      body.passDeadline();
    }
    if (this.pending.size > 0) this.timer = setTimeout(this.check, this.interval);
  };
}

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
  /**
   * The request's deadline (`performance.now()` at its arrival plus `request_timeout`), on a server
   * that holds bodies to it (Deno's), which `deadlines` checks while a read is pending.
   */
  readonly dueAt: number | undefined;
  private readonly deadlines: BodyDeadlines | undefined;
  private watched = false;
  private late = false;
  // Fails the pending read once the deadline passed (the runtime's own read goes on unseen).
  private failPending: ((error: Error) => void) | undefined;
  private readingStream: Readable | undefined;
  /** Told once, when the deadline passes before the body is in: the server answers 408. */
  onLate: (() => void) | undefined;

  constructor(request: Request, headers: Headers, deadlines?: BodyDeadlines, dueAt?: number) {
    this.request = request;
    this.headers = headers;
    this.deadlines = deadlines;
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
    return this.dueAt === undefined ? this.readNow(limit) : this.beforeDeadline(this.readNow(limit));
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

  /**
   * `reading`, failed as a client gone if the body is not in by the deadline. A late `arrayBuffer()`
   * cannot be cancelled: it ends when the client leaves (its failure then goes nowhere).
   */
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
    if (this.watched) return;
    this.watched = true;
    this.deadlines!.watch(this);
  }

  private disarm(): void {
    if (!this.watched) return;
    this.watched = false;
    this.deadlines!.unwatch(this);
  }

  /**
   * Whether a late read was cancelled (a stream's reader, a multipart stream): `Deno.serve` then
   * answers without its own `Connection: close`, which it adds while a read is still pending.
   */
  get cancelledLate(): boolean {
    return this.late && this.streamed !== undefined;
  }

  /**
   * The deadline passed with a read pending (told by `BodyDeadlines`): as on Node, where the 408
   * destroys the connection under it, the read fails with the client gone; the server answers 408.
   */
  passDeadline(): void {
    this.watched = false;
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
