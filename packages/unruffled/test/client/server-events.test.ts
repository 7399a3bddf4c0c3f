// The event-stream reader of unruffled/client, fed the bytes a server may send, split anywhere.
import fc from "fast-check";
import { EventDecodeError, readServerEvents, type ServerEvent } from "unruffled/client";
import { expect, it } from "vitest";
import { eventStreamChunks } from "../support/event-stream-text.ts";

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function all(stream: ReadableStream<Uint8Array>): Promise<ServerEvent<unknown>[]> {
  const events: ServerEvent<unknown>[] = [];
  for await (const event of readServerEvents(stream, undefined)) events.push(event);
  return events;
}

it("reads data, event, id and retry, skipping comments", async () => {
  const events = await all(streamOf(': connected\n\nevent: seats\nid: 7\nretry: 500\ndata: {"n":1}\n\n'));
  expect(events).toEqual([{ data: { n: 1 }, event: "seats", id: "7", retry: 500 }]);
});

it("joins data lines with a newline, and takes CR, LF and CRLF line ends split across chunks", async () => {
  const events = await all(
    streamOf('data: ["a",\r', '\ndata: "b"]\r', "\n\r", "\ndata: 2\r\rdata:3\n", "\n"),
  );
  expect(events).toEqual([{ data: ["a", "b"] }, { data: 2 }, { data: 3 }]);
});

it("reads the same events however the bytes are split into chunks, a long line in many chunks too", async () => {
  await fc.assert(
    fc.asyncProperty(eventStreamChunks, async ({ text, chunks }) => {
      expect(await all(streamOf(...chunks))).toEqual(await all(streamOf(text)));
    }),
    { numRuns: 200 },
  );
});

it("takes an LF alone in its chunk after a CR as the CR's second half, and the next LF as a line end", async () => {
  expect(await all(streamOf("data: 1\r", "\n", "\n"))).toEqual([{ data: 1 }]);
});

it("drops an event the stream ends in the middle of", async () => {
  expect(await all(streamOf("data: 1\n\ndata: 2\n"))).toEqual([{ data: 1 }]);
});

it("ends with an EventDecodeError when an event's data is not JSON", async () => {
  await expect(all(streamOf("data: {oops\n\n"))).rejects.toThrow(new EventDecodeError("{oops"));
});

it("cancels the body when the loop stops early", async () => {
  let cancelled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(new TextEncoder().encode("data: 1\n\n"));
    },
    cancel() {
      cancelled += 1;
    },
  });
  for await (const event of readServerEvents(body, undefined)) {
    expect(event).toEqual({ data: 1 });
    break;
  }
  expect(cancelled).toBe(1);
});

it("yields nothing after the signal aborts, not even events already received", async () => {
  const abort = new AbortController();
  const seen: unknown[] = [];
  for await (const event of readServerEvents(streamOf("data: 1\n\ndata: 2\n\ndata: 3\n\n"), abort.signal)) {
    seen.push(event.data);
    abort.abort();
  }
  expect(seen).toEqual([1]);
});
