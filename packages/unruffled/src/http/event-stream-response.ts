import type { Readable } from "../node-builtins.ts";
import { EventFrames, type EventIterable } from "./event-frames.ts";
import { HttpResponse, type ResponseInit } from "./response.ts";

export interface EventStreamInit extends ResponseInit {
  /** Milliseconds without an event after which a comment line keeps proxies from closing the stream (default 15 000; 0: none). */
  heartbeat?: number;
}

/** How often an idle event stream sends a comment line, unless told otherwise. */
export const DEFAULT_HEARTBEAT_MS = 15_000;

/**
 * A `text/event-stream` answer (server-sent events) from an iterable of events: each event's `data`
 * goes out as JSON, through the model its route declares with
 * `p.ResponseSpec({ model, content_type: "text/event-stream" })`, and `event`, `id` and `retry` as
 * their own lines. Events are read as fast as the client takes them; when the client goes away the
 * iterable is closed, and `request.signal` aborts.
 *
 * @example
 * handler: (request) => new EventStreamResponse(ticks(request.signal)), // async function* ticks(signal) { … yield { data: { n } } }
 */
export class EventStreamResponse<T = unknown> extends HttpResponse {
  /** The events as the handler gave them. */
  readonly events: EventIterable<T>;
  private readonly frames: EventFrames;

  constructor(events: EventIterable<T>, init: EventStreamInit = {}) {
    const frames = new EventFrames(events as EventIterable<unknown>, init.heartbeat ?? DEFAULT_HEARTBEAT_MS);
    const headers = { "cache-control": "no-cache", "x-accel-buffering": "no", ...init.headers };
    super(
      frames,
      init.status === undefined ? { headers } : { status: init.status, headers },
      "text/event-stream",
    );
    this.events = events;
    this.frames = frames;
  }

  /** The stream of event lines, read by the adapter as fast as the client takes them. */
  override get body(): Readable {
    return this.frames;
  }

  /** Writes each event's data with `serializer` (the app passes the route's compiled model). */
  serializeDataWith(serializer: (data: T) => string): void {
    this.frames.serialize = serializer as (data: unknown) => string;
  }
}
