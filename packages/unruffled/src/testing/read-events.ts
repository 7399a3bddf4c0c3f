import { EventStreamLines, type PendingEvent, readField } from "../client/server-events.ts";

/** A server-sent event as a client received it: `data` parsed as JSON. */
export interface ReceivedEvent<T = unknown> {
  data: T;
  event?: string;
  id?: string;
  retry?: number;
}

/**
 * The events of a `text/event-stream` body, as a browser's `EventSource` reads them: comments
 * skipped, `data:` lines joined, one leading space of a value dropped; each event's data parsed as
 * JSON. Reads any stream of bytes: a Node Readable, or a `fetch` body.
 *
 * @example for await (const event of readEvents<SeatCount>(response.body!)) console.log(event.data.seats_left);
 */
export async function* readEvents<T = unknown>(
  chunks: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<ReceivedEvent<T>, void, undefined> {
  const decoder = new TextDecoder();
  const lineReader = new EventStreamLines();
  let pending: PendingEvent = { data: [] };
  for await (const chunk of chunks) {
    const text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    for (const line of lineReader.push(text)) {
      if (line !== "") {
        readField(pending, line);
        continue;
      }
      const { data, ...fields } = pending;
      pending = { data: [] };
      if (data.length > 0) yield { ...fields, data: parseData<T>(data.join("\n")) };
    }
  }
}

function parseData<T>(text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new SyntaxError(`An event's data is not JSON: ${text.slice(0, 200)}`);
  }
}
