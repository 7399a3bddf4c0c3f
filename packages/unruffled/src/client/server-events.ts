import { EventStreamLines, type PendingEvent, readField } from "./event-stream-text.ts";
import { failureReason } from "./failure-reason.ts";

/** One server-sent event as the client reads it: its data parsed from JSON, and its other fields. */
export interface ServerEvent<Data> {
  data: Data;
  event?: string;
  id?: string;
  retry?: number;
}

/** The events of a stream: iterate with `for await`; breaking out or the call's signal ends it. */
export type ServerEvents<Data> = AsyncIterable<ServerEvent<Data>>;

/** An event whose data is not JSON: the stream ends with this error. */
export class EventDecodeError extends Error {
  override name = "EventDecodeError";
  readonly data: string;
  constructor(data: string) {
    super(`An event's data is not JSON: ${data.slice(0, 200)}`);
    this.data = data;
  }
}

/** The connection broke before the stream ended (reset, cut mid-chunk): the stream ends with this error. */
export class EventStreamError extends Error {
  override name = "EventStreamError";
  constructor(cause: unknown) {
    super(`The event stream was cut before its end: ${failureReason(cause)}`, { cause });
  }
}

/**
 * Reads `text/event-stream` bytes into events (the WHATWG rules: lines end in CR, LF or CRLF, a
 * blank line dispatches, `:` starts a comment). The stream ends quietly when the body ends or the
 * call's signal aborts it, and with an `EventStreamError` when the connection breaks first; `break`
 * cancels the body, which closes the connection's stream.
 *
 * @example for await (const { data } of readServerEvents(response.body, signal)) console.log(data);
 */
export async function* readServerEvents<Data>(
  body: ReadableStream<Uint8Array> | null,
  signal: AbortSignal | undefined,
): AsyncGenerator<ServerEvent<Data>, void, undefined> {
  if (body === null) return;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const lineReader = new EventStreamLines();
  let pending: PendingEvent = { data: [] };
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (signal?.aborted) return;
        throw new EventStreamError(error);
      }
      if (chunk.done) return;
      for (const line of lineReader.push(decoder.decode(chunk.value, { stream: true }))) {
        if (line === "") {
          // Events already received stay unread once the signal aborts: the stream ends there.
          if (signal?.aborted) return;
          if (pending.data.length > 0) yield toEvent<Data>(pending);
          pending = { data: [] };
          continue;
        }
        readField(pending, line);
      }
    }
  } finally {
    // Cancelling an already finished or errored body is harmless; it releases the connection.
    await reader.cancel().catch(() => {});
  }
}

function toEvent<Data>(pending: PendingEvent): ServerEvent<Data> {
  const text = pending.data.join("\n");
  let data: Data;
  try {
    data = JSON.parse(text) as Data;
  } catch {
    throw new EventDecodeError(text);
  }
  const event: ServerEvent<Data> = { data };
  if (pending.event !== undefined) event.event = pending.event;
  if (pending.id !== undefined) event.id = pending.id;
  if (pending.retry !== undefined) event.retry = pending.retry;
  return event;
}
