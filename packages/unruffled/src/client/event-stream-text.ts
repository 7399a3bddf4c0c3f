// The text/event-stream format as a client reads it, by the WHATWG rules: lines, then fields. Read by
// the typed client's reader (server-events.ts) and the test client's (testing/read-events.ts).

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
