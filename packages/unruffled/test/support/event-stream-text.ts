// Event-stream text a server may send, and the same text cut into chunks anywhere: for the
// readers' property that the events do not depend on how the bytes arrive (client/server-events,
// testing/read-events).
import fc from "fast-check";

// One data line an event (its data JSON, at times a 5,000-character string), among its other fields.
const data = fc.oneof(fc.json(), fc.constant(`"${"x".repeat(5_000)}"`)).map((json) => `data: ${json}`);
const other = fc.constantFrom("event: seats", "id: 7", "retry: 500", ": comment");
const lineEnd = fc.constantFrom("\n", "\r", "\r\n");
const event = fc
  .tuple(fc.array(other, { maxLength: 3 }), data, fc.nat(), fc.array(lineEnd, { minLength: 4, maxLength: 4 }))
  .map(([others, dataLine, at, ends]) => {
    const lines: string[] = [...others];
    lines.splice(at % (others.length + 1), 0, dataLine);
    // The blank line ends as the last line did: a CR then an LF would be one CRLF, not two ends.
    return `${lines.map((line, index) => line + ends[index]).join("")}${ends[lines.length - 1]}`;
  });

/** A stream's text (one to five events) and the same text cut at up to 40 places. */
export const eventStreamChunks = fc
  .tuple(fc.array(event, { minLength: 1, maxLength: 5 }), fc.array(fc.nat(), { maxLength: 40 }))
  .map(([events, cuts]) => {
    const text = events.join("");
    const at = [...new Set(cuts.map((cut) => cut % text.length))].sort((a, b) => a - b);
    return { text, chunks: [0, ...at].map((start, index) => text.slice(start, at[index] ?? text.length)) };
  });
