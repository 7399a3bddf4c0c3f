import { Readable } from "../node-builtins.ts";
import { TurnTaking } from "./turn-taking.ts";

/** One server-sent event: its data (sent as JSON), and optionally its type, id and reconnection delay. */
export interface ServerSentEvent<T = unknown> {
  data: T;
  /** The event's type (`event:`); a browser's `EventSource` dispatches the event under this name. */
  event?: string;
  /** The event's id (`id:`): a client that reconnects sends the last one it saw as `Last-Event-ID`. */
  id?: string;
  /** Milliseconds a client should wait before it reconnects (`retry:`). */
  retry?: number;
}

/** Events as a handler gives them: an async generator, or any (async) iterable. */
export type EventIterable<T> = AsyncIterable<ServerSentEvent<T>> | Iterable<ServerSentEvent<T>>;

// Sent first, so that the client has the headers at once, not with the first event.
const OPENING = ": connected\n\n";
const HEARTBEAT = ": heartbeat\n\n";

/**
 * The bytes of an event stream. Events are pulled from the handler's iterable only as fast as the
 * client reads (a Readable's back-pressure); a comment line goes out after `heartbeatMs` without
 * one (the heartbeat's clock starts again with each event, so the wire is never silent longer than
 * `heartbeatMs`), if nothing waits to be sent; and destroying the stream (the client went away) closes the
 * events' iterator with `return()`.
 *
 * @example new EventFrames([{ data: { seats: 3 } }], 15_000).pipe(res)
 */
export class EventFrames extends Readable {
  /** Writes an event's data: the route's compiled model when it declares one, else JSON.stringify. */
  serialize: (data: unknown) => string = jsonText;
  /**
   * What the stream failed with on its own (its source threw, or an event could not be written);
   * undefined when it was destroyed from outside, as when its client left.
   */
  failure: Error | undefined;
  private readonly source: AsyncIterator<ServerSentEvent> | Iterator<ServerSentEvent>;
  private readonly heartbeatMs: number;
  private timer: ReturnType<typeof setInterval> | undefined;
  private started = false;
  private pulling = false;
  private ended = false;
  private readonly turns = new TurnTaking();
  private readonly pullAfterTurn = () => {
    this.pulling = false;
    if (!this.ended) this.pull();
  };

  constructor(events: EventIterable<unknown>, heartbeatMs: number) {
    super();
    this.source = iteratorOf(events);
    this.heartbeatMs = heartbeatMs;
  }

  override _read(): void {
    if (!this.started) this.start();
    if (!this.pulling && !this.ended) this.pull();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.stop();
    if (!this.ended) closeIterator(this.source);
    this.ended = true;
    callback(error);
  }

  /**
   * Ends the stream after what was already sent and closes the events' iterator: the app is
   * closing, and a client of an event stream reconnects (to another server) rather than being cut.
   */
  finish(): void {
    if (this.ended || this.destroyed) return;
    this.ended = true;
    this.stop();
    closeIterator(this.source);
    this.push(null);
  }

  private start(): void {
    this.started = true;
    this.push(OPENING);
    if (this.heartbeatMs <= 0) return;
    this.timer = setInterval(() => this.beat(), this.heartbeatMs);
    this.timer.unref();
  }

  /** A comment after a silent interval, unless the client has not read what was sent already. */
  private beat(): void {
    if (this.readableLength === 0 && !this.ended) this.push(HEARTBEAT);
  }

  private pull(): void {
    this.pulling = true;
    if (this.turns.deferred(this.pullAfterTurn)) return;
    let next: IteratorResult<ServerSentEvent> | Promise<IteratorResult<ServerSentEvent>>;
    try {
      next = this.source.next();
    } catch (error) {
      this.fail(error);
      return;
    }
    Promise.resolve(next).then(
      (result) => {
        this.pulling = false;
        if (this.ended) return;
        if (result.done) {
          this.ended = true;
          this.stop();
          this.push(null);
          return;
        }
        let frame: string;
        try {
          frame = eventFrame(result.value, this.serialize);
        } catch (error) {
          this.fail(error);
          return;
        }
        // The silence starts now: the next heartbeat is due a whole interval after this event.
        this.timer?.refresh();
        // Readable calls _read again when the client has room for more.
        this.push(frame);
      },
      (error: unknown) => {
        this.pulling = false;
        // A source that stops with an error once finish() ended the stream (its signal aborted
        // while it waited) leaves the stream as it ended: complete, not cut.
        if (this.ended) return;
        this.fail(error);
      },
    );
  }

  private fail(error: unknown): void {
    this.failure = asError(error);
    this.destroy(this.failure);
  }

  private stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}

/**
 * One event as it travels: `event:`, `id:`, `retry:` and `data:` lines, then a blank line.
 *
 * @example eventFrame({ data: { seats: 3 }, id: "7" }, JSON.stringify) // 'id: 7\ndata: {"seats":3}\n\n'
 */
export function eventFrame(event: ServerSentEvent, serialize: (data: unknown) => string): string {
  if (typeof event !== "object" || event === null) {
    throw new TypeError(
      "An event stream yields events: objects with data, and optionally event, id and retry",
    );
  }
  let frame = "";
  if (event.event !== undefined) frame += `event: ${lineValue("event", event.event)}\n`;
  if (event.id !== undefined) frame += `id: ${lineValue("id", event.id)}\n`;
  if (event.retry !== undefined) {
    if (!Number.isInteger(event.retry) || event.retry < 0) {
      throw new TypeError(`An event's retry must be a whole number of milliseconds, got ${event.retry}`);
    }
    frame += `retry: ${event.retry}\n`;
  }
  for (const line of serialize(event.data).split(/\r\n|\r|\n/)) frame += `data: ${line}\n`;
  return `${frame}\n`;
}

// A line break in a field would start another field: a reflected value could forge events.
function lineValue(name: string, value: string): string {
  if (typeof value !== "string" || /[\r\n\0]/.test(value)) {
    throw new TypeError(
      `An event's ${name} must be a string without line breaks or NUL, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

function jsonText(data: unknown): string {
  return JSON.stringify(data) ?? "null";
}

function iteratorOf(
  events: EventIterable<unknown>,
): AsyncIterator<ServerSentEvent> | Iterator<ServerSentEvent> {
  const source = events as Partial<AsyncIterable<ServerSentEvent> & Iterable<ServerSentEvent>>;
  const asyncIterator = source[Symbol.asyncIterator];
  if (typeof asyncIterator === "function") return asyncIterator.call(source);
  const syncIterator = source[Symbol.iterator];
  if (typeof syncIterator === "function") return syncIterator.call(source);
  throw new TypeError("EventStreamResponse takes an iterable or async iterable of events");
}

// An async generator waiting inside an `await` finishes its `return()` once that await settles:
// a source that waits on something should also stop when `request.signal` aborts.
function closeIterator(iterator: AsyncIterator<ServerSentEvent> | Iterator<ServerSentEvent>): void {
  try {
    const closing = iterator.return?.();
    if (closing instanceof Promise) closing.catch(() => undefined);
  } catch {
    // A source that fails while closing has nothing more to send anyway.
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
