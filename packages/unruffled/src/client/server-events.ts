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

// The format itself, shared with the test client's reader (testing/read-events.ts).

/** An event being read: its data lines and its other fields, until a blank line ends it. */
export interface PendingEvent {
  data: string[];
  event?: string;
  id?: string;
  retry?: number;
}

/**
 * Event-stream text cut into lines as it arrives in chunks, by the WHATWG rules: a line ends in CR,
 * LF or CRLF. Only each chunk's new text is searched, so a long line that comes in many chunks is
 * scanned once; a CR that ends a chunk ends its line at once, and an LF that starts the next chunk is
 * its second half.
 *
 * @example const lines = new EventStreamLines(); lines.push("data: 1\r"); // ["data: 1"]; then push("\n") → []
 */
export class EventStreamLines {
  /** The start of a line whose end has not come yet (no line end in it). */
  private held = "";
  private afterCarriageReturn = false;

  /** The lines the text completes, without their ends. */
  push(chunk: string): string[] {
    const text = this.afterCarriageReturn && chunk.startsWith("\n") ? chunk.slice(1) : chunk;
    this.afterCarriageReturn = text.endsWith("\r");
    const lines = text.split(/\r\n|\r|\n/);
    lines[0] = this.held + lines[0];
    this.held = lines.pop()!;
    return lines;
  }
}

/**
 * Adds one line's field to the event being read: a comment (`:`) is skipped, one space after the
 * colon dropped, `data` lines kept in order; an `id` with a NUL and a `retry` that is not digits are
 * ignored, as a browser's `EventSource` ignores them.
 *
 * @example readField(pending, "data: {\"n\":1}"); // pending.data: ['{"n":1}']
 */
export function readField(pending: PendingEvent, line: string): void {
  if (line.startsWith(":")) return;
  const colon = line.indexOf(":");
  const field = colon < 0 ? line : line.slice(0, colon);
  let value = colon < 0 ? "" : line.slice(colon + 1);
  if (value.startsWith(" ")) value = value.slice(1);
  if (field === "data") pending.data.push(value);
  else if (field === "event") pending.event = value;
  else if (field === "id" && !value.includes("\0")) pending.id = value;
  else if (field === "retry" && /^\d+$/.test(value)) pending.retry = Number(value);
}
