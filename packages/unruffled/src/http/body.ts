import type { IncomingMessage } from "node:http";
import { HttpError, PayloadTooLargeError } from "../errors.ts";
import { Readable } from "../node-builtins.ts";
import { closeGentlyAfterAnswer } from "./close-after-answer.ts";

/**
 * Where a request body comes from: a Node `IncomingMessage` or a web `ReadableStream`. The request
 * path reads bodies only through this, so both runtimes share every limit.
 */
export interface BodySource {
  /** The `Content-Length` the client announced, if any. */
  readonly length: number | undefined;
  /** True once reading was abandoned past a limit: the connection must close after the answer. */
  readonly abandoned: boolean;
  /** The whole body, refused with 413 as soon as it passes `limit` bytes (the rest is never read). */
  read(limit: number): Promise<Buffer>;
  /**
   * The same as `read`, to a callback: a source that offers it saves the request path a promise per
   * body. `done` is called once, with an error or with the bytes. A source that offers it keeps the
   * outcome: a later `read` or `collect` gives the same bytes, or the same error.
   */
  collect?(limit: number, done: BodyCallback): void;
  /**
   * The body as UTF-8 text, where the source reads text more cheaply than bytes (Bun's `text()`);
   * undefined where it would not (no such reading, an unknown length, or one past `limit`): then
   * `read`. Refused with 413 past `limit`, as `read` is.
   */
  readText?(limit: number): Promise<string> | undefined;
  /**
   * Hands `done` the body's text (or why it could not be read) at once, and returns true, when the
   * source already holds it: a server read it before the route ran. False otherwise (then `readText`).
   */
  collectHeldText?(done: TextCallback): boolean;
  /** The body as a Node stream, for streaming parsers such as multipart. */
  readable(): Readable;
  /** Stops reading: nothing more is buffered and the connection closes after the answer. */
  abandon(): void;
}

/** Gets the body, or why it could not be read. */
export type BodyCallback = (error: Error | undefined, bytes: Buffer | undefined) => void;

/** Gets the body as text, or why it could not be read. */
export type TextCallback = (error: Error | undefined, text: string | undefined) => void;

const EMPTY = Buffer.alloc(0);

export class ClientAbortedError extends HttpError {
  override name = "ClientAbortedError";
  constructor() {
    super(400, "The client closed the connection before the body was complete");
  }
}

/**
 * Why a web runtime's read of a request body failed, as the app answers it: a TypeError is the body's
 * misuse (already read, locked) and stays what it is; anything else is the connection failing under
 * the body, the client gone (Bun rejects with an AbortError, Deno with BadResource), as on Node.
 *
 * @example await request.arrayBuffer().catch((error) => { throw webBodyFailure(error); })
 */
export function webBodyFailure(error: unknown): unknown {
  return error instanceof TypeError ? error : new ClientAbortedError();
}

/** `webBodyFailure` as a rejection handler: `read().catch(rethrowWebBodyFailure)`. */
export function rethrowWebBodyFailure(error: unknown): never {
  throw webBodyFailure(error);
}

function tooLarge(limit: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`Request body is larger than the limit of ${limit} bytes`, limit);
}

/**
 * Reads a Node request body with a size limit, without async iteration (cheaper on the hot path).
 * The outcome is kept: a second read gives the same bytes, or the same error.
 */
export class NodeBodySource implements BodySource {
  abandoned = false;
  private readonly message: IncomingMessage;
  private bytes: Buffer | undefined;
  private error: Error | undefined;

  // The constructor only keeps the message: a source is made for every request, and most never read.
  constructor(message: IncomingMessage) {
    this.message = message;
  }

  get length(): number | undefined {
    const header = this.message.headers["content-length"];
    return header === undefined ? undefined : Number(header);
  }

  read(limit: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.collect(limit, (error, bytes) => (error === undefined ? resolve(bytes!) : reject(error)));
    });
  }

  collect(limit: number, done: BodyCallback): void {
    if (this.error !== undefined) {
      done(this.error, undefined);
      return;
    }
    if (this.bytes !== undefined) {
      if (this.bytes.length > limit) done(tooLarge(limit), undefined);
      else done(undefined, this.bytes);
      return;
    }
    const length = this.length;
    if (length !== undefined && length > limit) {
      this.abandon();
      this.fail(tooLarge(limit), done);
      return;
    }
    // `readableEnded`, not `complete`: a body that fully arrived may still wait in the stream's buffer.
    if (length === 0 || this.message.readableEnded) {
      this.bytes = EMPTY;
      done(undefined, EMPTY);
      return;
    }
    // The client left before a handler that awaited something else asked for the body.
    if (this.message.destroyed) {
      this.fail(new ClientAbortedError(), done);
      return;
    }
    const message = this.message;
    const chunks: Buffer[] = [];
    let size = 0;
    // Once `done` was called nothing more is read: the listeners stay (removing three costs more
    // than the message they die with), and what they still hear is ignored.
    let settled = false;
    const onData = (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) {
        settled = true;
        chunks.length = 0;
        this.abandon();
        this.fail(tooLarge(limit), done);
        return;
      }
      chunks.push(chunk);
    };
    message.on("data", onData);
    message.on("end", () => {
      if (settled) return;
      settled = true;
      const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      this.bytes = bytes;
      done(undefined, bytes);
    });
    // A client that leaves mid-body: Node destroys the message with an "aborted" error.
    message.on("error", () => {
      if (settled) return;
      settled = true;
      this.fail(new ClientAbortedError(), done);
    });
  }

  /** Keeps why the body could not be read, for a second read, and tells `done`. */
  private fail(error: Error, done: BodyCallback): void {
    this.error = error;
    done(error, undefined);
  }

  readable(): Readable {
    return this.message;
  }

  abandon(): void {
    if (this.abandoned) return;
    this.abandoned = true;
    this.message.pause();
    closeGentlyAfterAnswer(this.message.socket);
  }
}

/** Reads a web-standard body (`Request.body`) with the same limits. */
export class WebBodySource implements BodySource {
  readonly length: number | undefined;
  abandoned = false;
  private readonly stream: ReadableStream<Uint8Array> | null;
  // The Node stream readable() made of the body, once asked for; or the reader read() holds.
  private reading: Readable | undefined;
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

  constructor(stream: ReadableStream<Uint8Array> | null, contentLength: string | null) {
    this.stream = stream;
    this.length = contentLength === null ? undefined : Number(contentLength);
  }

  async read(limit: number): Promise<Buffer> {
    if (this.length !== undefined && this.length > limit) {
      this.abandon();
      throw tooLarge(limit);
    }
    if (!this.stream) return EMPTY;
    const reader = this.stream.getReader();
    this.reader = reader;
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read().catch(rethrowWebBodyFailure);
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        this.abandoned = true;
        await reader.cancel().catch(() => {});
        throw tooLarge(limit);
      }
      chunks.push(value);
    }
    return Buffer.concat(chunks, size);
  }

  readable(): Readable {
    if (!this.stream) return Readable.from([]);
    this.reading = Readable.fromWeb(this.stream as import("node:stream/web").ReadableStream<Uint8Array>);
    return this.reading;
  }

  abandon(): void {
    this.abandoned = true;
    // A stream read through readable() or read() is locked to its reader: destroying the Readable,
    // or cancelling the reader, cancels it (a pending read then sees the end).
    if (this.reading !== undefined) this.reading.destroy();
    else if (this.reader !== undefined) this.reader.cancel().catch(() => {});
    else this.stream?.cancel().catch(() => {});
  }
}
