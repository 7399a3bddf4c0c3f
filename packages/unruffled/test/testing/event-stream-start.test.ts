// The test client reads an event stream as a socket does: from when the answer is made, so "open
// the stream, publish, read" works in a test (docs/testing.md, "Reading event streams").
import { createApp } from "unruffled";
import { EventStreamResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";

describe("event streams in the test client", () => {
  it("start when the answer is made, as over a socket: open the stream, publish, read", async () => {
    const subscribers = new Set<(n: number) => void>();
    const publish = (n: number) => {
      for (const subscriber of subscribers) subscriber(n);
    };
    async function* seats(signal: AbortSignal) {
      const queue: number[] = [];
      let wake: (() => void) | undefined;
      const subscriber = (n: number) => {
        queue.push(n);
        wake?.();
      };
      subscribers.add(subscriber);
      signal.addEventListener("abort", () => wake?.());
      try {
        while (!signal.aborted) {
          if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
          if (queue.length > 0) yield { data: { seats_left: queue.shift()! } };
        }
      } finally {
        subscribers.delete(subscriber);
      }
    }
    const follow = endpoint({
      returns: [
        p.ResponseSpec({ model: z.object({ seats_left: z.int() }), content_type: "text/event-stream" }),
      ],
      handler: (request) => new EventStreamResponse(seats(request.signal)),
    });
    const app = createApp({ routes: [path("/seats", { endpoint: follow })] });
    const response = await testClient(app).call(follow);
    // As over a socket, the stream is being read: the handler's source has subscribed.
    expect(subscribers.size).toBe(1);
    publish(3);
    const events = response.events();
    expect((await events.next()).value).toEqual({ data: { seats_left: 3 } });
    response.close();
    await events.return(undefined);
    await app.settled();
    expect(subscribers.size).toBe(0);
  });

  it("reads ahead of the test only up to its buffer of 16 KiB, beside the stream's own", async () => {
    const frame = `data: {"n":"${"x".repeat(1000)}"}\n\n`; // 1,014 bytes on the wire
    let pulled = 0;
    async function* endless() {
      for (;;) {
        pulled += 1;
        yield { data: { n: "x".repeat(1000) } };
      }
    }
    let ownBuffer = 0;
    const follow = endpoint({
      returns: [p.ResponseSpec({ model: z.object({ n: z.string() }), content_type: "text/event-stream" })],
      handler: () => {
        const response = new EventStreamResponse(endless());
        ownBuffer = response.body.readableHighWaterMark;
        return response;
      },
    });
    const app = createApp({ routes: [path("/endless", { endpoint: follow })] });
    const response = await testClient(app).call(follow);
    // Nothing reads the events: the client pulls until its buffer is full, then stops. In process
    // there is no I/O, so a count unchanged over many turns of the event loop is the final one.
    let last = -1;
    for (let unchanged = 0; unchanged < 100; unchanged = pulled === last ? unchanged + 1 : 0) {
      last = pulled;
      await new Promise((resolve) => setImmediate(resolve));
    }
    // The stream's own buffer, the client's 16 KiB, and the frame each of them may hold beyond it.
    expect(pulled * frame.length).toBeLessThanOrEqual(ownBuffer + 16 * 1024 + 3 * frame.length);
    expect(pulled * frame.length).toBeGreaterThan(ownBuffer + 16 * 1024 - frame.length);
    const events = response.events();
    expect((await events.next()).value).toEqual({ data: { n: "x".repeat(1000) } });
    response.close();
    await events.return(undefined);
    await app.settled();
  });
});
