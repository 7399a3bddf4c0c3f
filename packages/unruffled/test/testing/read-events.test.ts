// The test client's event-stream reader (readEvents), fed the bytes a server may send, split anywhere.
import fc from "fast-check";
import { readEvents } from "unruffled/testing";
import { expect, it } from "vitest";
import { eventStreamChunks } from "../support/event-stream-text.ts";

async function all(chunks: readonly string[]): Promise<unknown[]> {
  const encoder = new TextEncoder();
  async function* bytes() {
    for (const chunk of chunks) yield encoder.encode(chunk);
  }
  const events: unknown[] = [];
  for await (const event of readEvents(bytes())) events.push(event);
  return events;
}

it("reads the same events however the bytes are split into chunks, a long line in many chunks too", async () => {
  await fc.assert(
    fc.asyncProperty(eventStreamChunks, async ({ text, chunks }) => {
      expect(await all(chunks)).toEqual(await all([text]));
    }),
    { numRuns: 200 },
  );
});

it("takes a CR as a line end at once: a stream whose last event ends with CR CR gives that event", async () => {
  expect(await all(["data: 1\r\r"])).toEqual([{ data: 1 }]);
  expect(await all(["data: 1\r", "\r"])).toEqual([{ data: 1 }]);
});

it("ignores an id with a NUL and a retry that is not digits, as a browser's EventSource does", async () => {
  expect(await all(["id: a\0b\nretry: 5s\nid: 7\ndata: 1\n\n"])).toEqual([{ id: "7", data: 1 }]);
  expect(await all(["id: 7\nid: a\0b\nretry: x\ndata: 1\n\n"])).toEqual([{ id: "7", data: 1 }]);
});
