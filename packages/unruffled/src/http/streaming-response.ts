import { Readable } from "../node-builtins.ts";
import { HttpResponse, type ResponseInit } from "./response.ts";
import { TurnTaking } from "./turn-taking.ts";

/** One piece of a streamed body: text (sent as UTF-8) or bytes. */
export type StreamChunk = string | Uint8Array;

/**
 * What a `StreamingResponse` sends: an async generator or any (async) iterable of chunks, a web
 * `ReadableStream`, or a Node `Readable`.
 */
export type StreamSource =
  | AsyncIterable<StreamChunk>
  | Iterable<StreamChunk>
  | ReadableStream<StreamChunk>
  | Readable;

export interface StreamingInit extends ResponseInit {
  /** The body's media type (default `application/octet-stream`); a `content-type` header wins. */
  contentType?: string;
}

/**
 * A body sent as its source gives it, chunked (FastAPI's `StreamingResponse`). A chunk is asked for
 * only when the client has taken the previous ones; when the client leaves, the source is closed (a
 * generator's `finally` runs, a web stream is cancelled, a `Readable` destroyed). The first chunk is
 * awaited before the head goes out, so that a source failing before it is answered 500 in the app's
 * error format; one failing later cuts the connection, and is logged.
 *
 * @example
 * handler: () => new StreamingResponse(csvRows(), { contentType: "text/csv" }), // async function* csvRows() { yield "id,name\n"; … }
 */
export class StreamingResponse extends HttpResponse {
  private readonly stream: StreamingBody;

  constructor(source: StreamSource, init: StreamingInit = {}) {
    const stream = new StreamingBody(iteratorOf(source));
    super(stream, init, init.contentType ?? "application/octet-stream");
    this.stream = stream;
  }

  /** The stream of chunks, read by the adapter as fast as the client takes them. */
  override get body(): StreamingBody {
    return this.stream;
  }
}

/**
 * The body of a `StreamingResponse`: pulls one chunk from its source each time the stream wants
 * one, and closes the source when destroyed before the end. `failure` is what the source threw
 * (a destroy from outside, a client gone, is not one).
 */
export class StreamingBody extends Readable {
  failure: Error | undefined;
  private readonly chunks: AsyncIterator<unknown> | Iterator<unknown>;
  private held: { chunk: unknown } | undefined;
  private done = false;
  private first: Promise<void> | undefined;
  private lateFailure: ((error: Error) => void) | undefined;
  private readonly turns = new TurnTaking();
  private readonly pullAfterTurn = () => {
    if (!this.destroyed) this.pull();
  };

  constructor(iterator: AsyncIterator<unknown> | Iterator<unknown>) {
    super();
    this.chunks = iterator;
  }

  /**
   * Resolves once the first chunk is in hand (or the source is empty); rejects with what the source
   * threw before it, the source then closed. The app awaits it before it answers, and tells it with
   * `lateFailure` what to do with a failure after that (log it). Asked once: a later call (a
   * middleware around the endpoint that made it) gets the same promise, and its `lateFailure` is not kept.
   */
  started(lateFailure?: (error: Error) => void): Promise<void> {
    if (this.first === undefined) {
      this.lateFailure = lateFailure;
      this.first = this.pullFirst();
    }
    return this.first;
  }

  private async pullFirst(): Promise<void> {
    try {
      const first = await this.chunks.next();
      if (first.done === true) this.done = true;
      else this.held = { chunk: checkedChunk(first.value) };
    } catch (error) {
      this.done = true;
      closeIterator(this.chunks);
      throw error;
    }
  }

  override _read(): void {
    const held = this.held;
    if (held !== undefined) {
      this.held = undefined;
      this.deliver(held.chunk);
      return;
    }
    if (this.done) {
      this.push(null);
      return;
    }
    this.pull();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.done) {
      this.done = true;
      closeIterator(this.chunks);
    }
    callback(error);
  }

  private async pull(): Promise<void> {
    if (this.turns.deferred(this.pullAfterTurn)) return;
    try {
      const next = await this.chunks.next();
      if (this.destroyed) return;
      if (next.done === true) {
        this.done = true;
        this.push(null);
      } else this.deliver(checkedChunk(next.value));
    } catch (error) {
      if (this.destroyed) return;
      this.done = true;
      this.failure = error instanceof Error ? error : new Error(String(error));
      this.lateFailure?.(this.failure);
      this.destroy(this.failure);
    }
  }

  // An empty chunk pushes nothing, and Node would not ask again: the next one is pulled instead.
  private deliver(chunk: unknown): void {
    if ((chunk as StreamChunk).length === 0) this.pull();
    else this.push(chunk);
  }
}

function checkedChunk(chunk: unknown): StreamChunk {
  if (typeof chunk === "string" || chunk instanceof Uint8Array) return chunk;
  throw new TypeError(
    `A StreamingResponse's source yields strings or bytes (Uint8Array), got ${chunk === null ? "null" : typeof chunk}`,
  );
}

/** The iterator of any source: a web stream through its reader, whose cancel() closes it. */
function iteratorOf(source: StreamSource): AsyncIterator<unknown> | Iterator<unknown> {
  if (source instanceof Readable) return source[Symbol.asyncIterator]();
  const candidate = source as Partial<AsyncIterable<unknown> & Iterable<unknown> & ReadableStream<unknown>>;
  if (typeof candidate.getReader === "function") {
    const reader = candidate.getReader();
    return {
      next: () => reader.read() as Promise<IteratorResult<unknown>>,
      return: async () => {
        await reader.cancel();
        return { done: true, value: undefined };
      },
    };
  }
  const asyncIterator = candidate[Symbol.asyncIterator];
  if (typeof asyncIterator === "function") return asyncIterator.call(source);
  const syncIterator = candidate[Symbol.iterator];
  if (typeof syncIterator === "function" && typeof source !== "string") return syncIterator.call(source);
  throw new TypeError(
    "StreamingResponse takes an async iterable or iterable of strings or bytes, a ReadableStream or a Readable",
  );
}

// An async generator waiting inside an `await` finishes its `return()` once that await settles.
function closeIterator(iterator: AsyncIterator<unknown> | Iterator<unknown>): void {
  try {
    const closing = iterator.return?.();
    if (closing instanceof Promise) closing.catch(() => undefined);
  } catch {
    // A source that fails while closing has nothing more to send anyway.
  }
}
