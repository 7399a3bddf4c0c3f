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
  // The start of a line whose end has not come yet (no line end in it).
  let held = "";
  // The last chunk ended with a CR, taken as a line end: an LF that starts the next is its second half.
  let afterCarriageReturn = false;
  let fields: Omit<ReceivedEvent<string>, "data"> = {};
  let data: string[] = [];
  for await (const chunk of chunks) {
    let text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    if (afterCarriageReturn && text.startsWith("\n")) text = text.slice(1);
    afterCarriageReturn = text.endsWith("\r");
    // Only the new text is searched: a long line that comes in many chunks is scanned once.
    const lines = text.split(/\r\n|\r|\n/);
    lines[0] = held + lines[0];
    held = lines.pop()!;
    for (const line of lines) {
      if (line === "") {
        if (data.length > 0) yield { ...fields, data: parseData<T>(data.join("\n")) };
        fields = {};
        data = [];
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const name = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (name === "data") data.push(value);
      else if (name === "event" || name === "id") fields[name] = value;
      else if (name === "retry" && /^\d+$/.test(value)) fields.retry = Number(value);
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
