import { EventEmitter, on } from "node:events";
import { type IncomingMessage, request } from "node:http";
import { waitFor } from "process-support";
import { type App, createApp, exceptionHandler, type Middleware, NotFoundError } from "unruffled";
import { EventStreamResponse, eventFrame, type HttpRequest, PlainTextResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { readEvents, testClient } from "unruffled/testing";
import { afterAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";

const SeatCount = z.object({ course_id: z.int(), seats_left: z.int() }).meta({ id: "SeatCount" });
const seatEvents = [p.ResponseSpec({ model: SeatCount, content_type: "text/event-stream" })] as const;
type Seats = z.input<typeof SeatCount>;

const apps: App[] = [];
afterAll(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close({ timeout: 1_000 })));
});

/** Serves an app on a loopback port; closed after the file. */
async function listening(app: App): Promise<number> {
  apps.push(app);
  await app.listen({ port: 0 });
  return app.address()!.port;
}

/** A GET whose answer is read as it arrives; `close()` hangs up, as a browser tab closing would. */
function openStream(port: number, target: string, headers: Record<string, string> = {}) {
  return new Promise<{ response: IncomingMessage; close: () => void }>((resolve, reject) => {
    const outgoing = request({ host: "127.0.0.1", port, path: target, headers, agent: false }, (response) =>
      resolve({ response, close: () => outgoing.destroy() }),
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}

/** The body of a stream that ends, read to its end. */
async function bodyOf(response: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of response) text += chunk;
  return text;
}

describe("event streams", () => {
  it("sends each event's data as JSON through the event model, with its event, id and retry lines", async () => {
    const seats = endpoint({
      returns: seatEvents,
      handler: () =>
        new EventStreamResponse([
          { data: { course_id: 7, seats_left: 2, password_hash: "x" }, event: "seats", id: "1", retry: 5000 },
          { data: { course_id: 7, seats_left: 1 } },
        ]),
    });
    const port = await listening(createApp({ routes: [path("/seats", { endpoint: seats })] }));
    const { response } = await openStream(port, "/seats");
    expect([
      response.statusCode,
      response.headers["content-type"],
      response.headers["cache-control"],
      response.headers["content-length"],
    ]).toEqual([200, "text/event-stream", "no-cache", undefined]);
    expect(await bodyOf(response)).toBe(
      ": connected\n\n" +
        'event: seats\nid: 1\nretry: 5000\ndata: {"course_id":7,"seats_left":2}\n\n' +
        'data: {"course_id":7,"seats_left":1}\n\n',
    );
  });

  it("tells a proxy not to buffer it: X-Accel-Buffering: no, Cache-Control: no-cache", async () => {
    const seats = endpoint({
      returns: seatEvents,
      handler: () => new EventStreamResponse([{ data: { course_id: 7, seats_left: 2 } }]),
    });
    const port = await listening(createApp({ routes: [path("/seats", { endpoint: seats })] }));
    const { response } = await openStream(port, "/seats");
    expect([response.headers["x-accel-buffering"], response.headers["cache-control"]]).toEqual([
      "no",
      "no-cache",
    ]);
    await bodyOf(response);
  });

  it("is read by the test client event by event, typed as the event model", async () => {
    const counting = endpoint({
      params: { from: p.Query(z.int(), { default: 3 }) },
      returns: seatEvents,
      handler: (_request, { from }) => {
        async function* countdown() {
          for (let left = from; left >= 0; left--) yield { data: { course_id: 1, seats_left: left } };
        }
        return new EventStreamResponse(countdown());
      },
    });
    const client = testClient(createApp({ routes: [path("/countdown", { endpoint: counting })] }));
    const response = await client.call(counting, { from: 2 });
    const received: number[] = [];
    for await (const event of response.events()) received.push(event.data.seats_left);
    expect(received).toEqual([2, 1, 0]);
  });

  it("reads Last-Event-ID as a header parameter like any other", async () => {
    const resumable = endpoint({
      params: { last_event_id: p.Header(z.coerce.number().int().optional()) },
      returns: seatEvents,
      handler: (_request, { last_event_id }) => {
        const first = (last_event_id ?? 0) + 1;
        return new EventStreamResponse(
          [first, first + 1].map((id) => ({ id: String(id), data: { course_id: 1, seats_left: 10 - id } })),
        );
      },
    });
    const client = testClient(createApp({ routes: [path("/resume", { endpoint: resumable })] }));
    const response = await client.get("/resume", { headers: { "Last-Event-ID": "5" } });
    const events = [];
    for await (const event of response.events()) events.push(event);
    expect(events).toEqual([
      { id: "6", data: { course_id: 1, seats_left: 4 } },
      { id: "7", data: { course_id: 1, seats_left: 3 } },
    ]);
  });

  it("sends a heartbeat comment after an interval without events", async () => {
    const quiet = endpoint({
      returns: seatEvents,
      handler: (request: HttpRequest) =>
        new EventStreamResponse<Seats>(silentUntil(request.signal), { heartbeat: 20 }),
    });
    const port = await listening(createApp({ routes: [path("/quiet", { endpoint: quiet })] }));
    const { response, close } = await openStream(port, "/quiet");
    let text = "";
    for await (const chunk of response) {
      text += chunk;
      if (text.includes(": heartbeat\n\n")) break;
    }
    close();
    expect(text.startsWith(": connected\n\n: heartbeat\n\n")).toBe(true);
  });

  it("never leaves the wire silent longer than the heartbeat, after an event as well", async () => {
    // The event comes right after a heartbeat, the next one 1.5 intervals after the event: a
    // heartbeat must go out between them (a whole interval after the event, not two).
    const HEARTBEAT_MS = 200;
    let heartbeatSeen = () => {};
    const firstHeartbeat = new Promise<void>((resolve) => {
      heartbeatSeen = resolve;
    });
    async function* afterHeartbeat(signal: AbortSignal) {
      await firstHeartbeat;
      yield { data: { course_id: 1, seats_left: 2 } };
      await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_MS * 1.5));
      yield { data: { course_id: 1, seats_left: 1 } };
      await silentUntil(signal).next();
    }
    const timed = endpoint({
      returns: seatEvents,
      handler: (request: HttpRequest) =>
        new EventStreamResponse<Seats>(afterHeartbeat(request.signal), { heartbeat: HEARTBEAT_MS }),
    });
    const port = await listening(createApp({ routes: [path("/timed", { endpoint: timed })] }));
    const { response, close } = await openStream(port, "/timed");
    let text = "";
    for await (const chunk of response) {
      text += chunk;
      if (text.includes(": heartbeat\n\n")) heartbeatSeen();
      if (text.includes('"seats_left":1')) break;
    }
    close();
    expect(text).toBe(
      ": connected\n\n: heartbeat\n\n" +
        'data: {"course_id":1,"seats_left":2}\n\n: heartbeat\n\n' +
        'data: {"course_id":1,"seats_left":1}\n\n',
    );
  });

  it("closes the events' iterator and aborts request.signal when the client goes away", async () => {
    const seen = { aborted: false, closed: false };
    const watched = endpoint({
      returns: seatEvents,
      handler: (request: HttpRequest) => {
        request.signal.addEventListener("abort", () => {
          seen.aborted = true;
        });
        async function* seats() {
          try {
            yield { data: { course_id: 1, seats_left: 3 } };
            yield* silentUntil(request.signal);
          } finally {
            seen.closed = true;
          }
        }
        return new EventStreamResponse(seats());
      },
    });
    const port = await listening(createApp({ routes: [path("/watched", { endpoint: watched })] }));
    const { response, close } = await openStream(port, "/watched");
    for await (const event of readEvents(response)) {
      expect(event.data).toEqual({ course_id: 1, seats_left: 3 });
      break;
    }
    close();
    await waitFor("the iterator to close", () => (seen.closed ? true : undefined));
    expect(seen).toEqual({ aborted: true, closed: true });
  });

  it("closes the iterator of a source that does not watch request.signal", async () => {
    let closed = false;
    const endless = endpoint({
      returns: seatEvents,
      handler: () => {
        async function* seats() {
          try {
            for (let left = 1_000_000; ; left--) {
              yield { data: { course_id: 1, seats_left: left } };
              await new Promise((resolve) => setTimeout(resolve, 5));
            }
          } finally {
            closed = true;
          }
        }
        return new EventStreamResponse(seats());
      },
    });
    const port = await listening(createApp({ routes: [path("/endless", { endpoint: endless })] }));
    const { response, close } = await openStream(port, "/endless");
    await firstEvent(response);
    close();
    await waitFor("the iterator to close", () => (closed ? true : undefined));
  });

  it("leaks no iterator and no listener after 500 streams opened and dropped", async () => {
    const bus = new EventEmitter();
    bus.setMaxListeners(0);
    const counts = { opened: 0, closed: 0 };
    const ticking = endpoint({
      returns: seatEvents,
      handler: (request: HttpRequest) => new EventStreamResponse<Seats>(ticks(bus, request.signal, counts)),
    });
    const app = createApp({ routes: [path("/ticks", { endpoint: ticking })] });
    const port = await listening(app);
    for (let batch = 0; batch < 10; batch++) {
      const streams = await Promise.all(Array.from({ length: 50 }, () => openStream(port, "/ticks")));
      await waitFor("every stream to listen", () => (bus.listenerCount("tick") === 50 ? true : undefined));
      bus.emit("tick", batch);
      await Promise.all(streams.map(({ response }) => firstEvent(response)));
      for (const stream of streams) stream.close();
      await waitFor("the dropped streams to stop listening", () =>
        bus.listenerCount("tick") === 0 ? true : undefined,
      );
    }
    await waitFor("every iterator to close", () => (counts.closed === 500 ? true : undefined));
    expect({ ...counts, listeners: bus.listenerCount("tick") }).toEqual({
      opened: 500,
      closed: 500,
      listeners: 0,
    });
  });

  it("closes 500 dropped sources that never look at request.signal, and stops their heartbeats", async () => {
    // The source above stops by its signal alone; this one stops only if the stream closes it.
    const HEARTBEAT_MS = 4_321;
    const counts = { opened: 0, closed: 0 };
    async function* unaware() {
      counts.opened++;
      try {
        for (let left = 1_000; ; left--) {
          yield { data: { course_id: 1, seats_left: left } };
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      } finally {
        counts.closed++;
      }
    }
    const ticking = endpoint({
      returns: seatEvents,
      handler: () => new EventStreamResponse(unaware(), { heartbeat: HEARTBEAT_MS }),
    });
    const port = await listening(createApp({ routes: [path("/unaware", { endpoint: ticking })] }));
    // The heartbeat timers started and stopped meanwhile (a spy's calls are gone once it is restored).
    const heartbeats: unknown[] = [];
    const stopped = new Set<unknown>();
    const setInterval = globalThis.setInterval;
    const clearInterval = globalThis.clearInterval;
    const starting = vi.spyOn(globalThis, "setInterval").mockImplementation(((
      ...args: Parameters<typeof setInterval>
    ) => {
      const timer = setInterval(...args);
      if (args[1] === HEARTBEAT_MS) heartbeats.push(timer);
      return timer;
    }) as typeof setInterval);
    const stopping = vi.spyOn(globalThis, "clearInterval").mockImplementation((timer) => {
      stopped.add(timer);
      clearInterval(timer);
    });
    try {
      for (let batch = 0; batch < 10; batch++) {
        const streams = await Promise.all(Array.from({ length: 50 }, () => openStream(port, "/unaware")));
        await Promise.all(streams.map(({ response }) => firstEvent(response)));
        for (const stream of streams) stream.close();
      }
      await waitFor("every source to close", () => (counts.closed === 500 ? true : undefined));
    } finally {
      starting.mockRestore();
      stopping.mockRestore();
    }
    expect({
      ...counts,
      heartbeats: heartbeats.length,
      running: heartbeats.filter((timer) => !stopped.has(timer)).length,
    }).toEqual({ opened: 500, closed: 500, heartbeats: 500, running: 0 });
  });

  it("pulls events only as fast as the client reads them (back-pressure)", async () => {
    let pulled = 0;
    const big = "x".repeat(64 * 1024);
    const flood = endpoint({
      returns: EventStreamResponse,
      handler: (request: HttpRequest) => {
        async function* events() {
          while (!request.signal.aborted) {
            pulled++;
            yield { data: big };
          }
        }
        return new EventStreamResponse(events());
      },
    });
    const port = await listening(createApp({ routes: [path("/flood", { endpoint: flood })] }));
    const { response, close } = await openStream(port, "/flood");
    response.pause();
    const stalled = await waitFor(
      "the server to stop pulling",
      stableValue(() => pulled),
      { timeoutMs: 15_000 },
    );
    // Socket buffers and the stream's own: a few megabytes, never the endless source.
    expect(stalled * big.length).toBeLessThan(32 * 1024 * 1024);
    let read = 0;
    for await (const _event of readEvents(response)) if (++read === stalled + 50) break;
    expect(pulled).toBeGreaterThan(stalled);
    close();
  });

  it("answers another client while it sends events that are all ready at once (a replayed history)", async () => {
    let pulled = 0;
    const replay = endpoint({
      returns: EventStreamResponse,
      handler: (request: HttpRequest) => {
        async function* history() {
          while (!request.signal.aborted) yield { id: String(++pulled), data: 1 };
        }
        return new EventStreamResponse(history());
      },
    });
    const ping = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("pong") });
    const port = await listening(
      createApp({ routes: [path("/replay", { endpoint: replay }), path("/ping", { endpoint: ping })] }),
    );
    const { response, close } = await openStream(port, "/replay");
    // A client that reads nothing: the stream runs until the socket's buffers are full.
    response.pause();
    const pong = await openStream(port, "/ping");
    expect([pong.response.statusCode, await bodyOf(pong.response)]).toEqual([200, "pong"]);
    const pulledWhenAnswered = pulled;
    const stalled = await waitFor(
      "the server to stop pulling",
      stableValue(() => pulled),
      { timeoutMs: 15_000 },
    );
    // The other answer came while the history was still being sent, not once the socket was full.
    expect(stalled).toBeGreaterThan(pulledWhenAnswered);
    close();
  });

  it("closes the connection of an event its model refuses (strict) and logs endpoint, status and field", async () => {
    const logger = { error: vi.fn() };
    const broken = endpoint({
      returns: seatEvents,
      handler: () =>
        new EventStreamResponse([
          { data: { course_id: 1, seats_left: 1 } },
          { data: JSON.parse('{"course_id":1,"seats_left":"none"}') },
        ]),
    });
    const port = await listening(
      createApp({ routes: [path("/broken", { endpoint: broken, name: "broken" })], logger }),
    );
    const { response } = await openStream(port, "/broken");
    const received: unknown[] = [];
    await expect(
      (async () => {
        for await (const event of readEvents(response)) received.push(event.data);
      })(),
    ).rejects.toThrow("aborted");
    expect(received).toEqual([{ course_id: 1, seats_left: 1 }]);
    const [details, message] = logger.error.mock.calls[0]!;
    expect([message, `${details.err.name}: ${details.err.message}`]).toEqual([
      "An event stream failed after its answer began; its connection was closed",
      'ResponseValidationError: endpoint "broken" (GET /broken) answered 200 with an event whose data its model refuses: seats_left: Invalid input: expected number, received string',
    ]);
  });

  it("refuses an event whose id or type holds a line break, which would forge another event", () => {
    expect(() => eventFrame({ data: 1, id: "1\ndata: forged" }, JSON.stringify)).toThrow(
      `An event's id must be a string without line breaks or NUL, got "1\\ndata: forged"`,
    );
    expect(() => eventFrame({ data: 1, event: "a\rb" }, JSON.stringify)).toThrow("An event's event must be");
  });

  it("streams through fetch(Request) too; cancelling the body closes the iterator", async () => {
    let closed = false;
    const seats = endpoint({
      returns: seatEvents,
      handler: (request: HttpRequest) => {
        async function* events() {
          try {
            yield { data: { course_id: 2, seats_left: 5 } };
            yield* silentUntil(request.signal);
          } finally {
            closed = true;
          }
        }
        return new EventStreamResponse(events());
      },
    });
    const app = createApp({ routes: [path("/seats", { endpoint: seats })] });
    const abort = new AbortController();
    const response = await app.fetch(new Request("http://localhost/seats", { signal: abort.signal }));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    for await (const event of readEvents(response.body!)) {
      expect(event).toEqual({ data: { course_id: 2, seats_left: 5 } });
      break;
    }
    abort.abort();
    await waitFor("the iterator to close", () => (closed ? true : undefined));
  });

  it("documents the answer as text/event-stream with the schema of one event", () => {
    const seats = endpoint({ returns: seatEvents, handler: () => new EventStreamResponse<Seats>([]) });
    const document = createApp({ routes: [path("/seats", { endpoint: seats, name: "seats" })] }).openapi();
    expect(document.paths["/seats"]!.get!.responses["200"]).toEqual({
      description: "Successful Response",
      content: {
        "text/event-stream": {
          schema: {
            type: "object",
            description: "One server-sent event; `data` is sent as JSON on its `data:` line.",
            properties: {
              data: { $ref: "#/components/schemas/SeatCount" },
              event: { type: "string", description: "The event's type" },
              id: {
                type: "string",
                description: "The event's id, sent back as Last-Event-ID on reconnection",
              },
              retry: { type: "integer", minimum: 0, description: "Milliseconds to wait before reconnecting" },
            },
            required: ["data"],
          },
        },
      },
    });
  });
});

describe("request.signal", () => {
  it("does not abort for a request answered in full", async () => {
    let signal: AbortSignal | undefined;
    const plain = endpoint({
      returns: EventStreamResponse,
      handler: (request: HttpRequest) => {
        signal = request.signal;
        return new EventStreamResponse([{ data: "done" }]);
      },
    });
    const port = await listening(createApp({ routes: [path("/plain", { endpoint: plain })] }));
    const { response } = await openStream(port, "/plain");
    await bodyOf(response);
    await new Promise((resolve) => response.socket?.once("close", resolve) ?? resolve(undefined));
    expect(signal!.aborted).toBe(false);
  });

  it("aborts when the client leaves while the handler is still working", async () => {
    let signal: AbortSignal | undefined;
    let release: () => void = () => undefined;
    const slow = endpoint({
      returns: EventStreamResponse,
      async handler(request: HttpRequest) {
        signal = request.signal;
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return new EventStreamResponse([]);
      },
    });
    const port = await listening(createApp({ routes: [path("/slow", { endpoint: slow })] }));
    const outgoing = request({ host: "127.0.0.1", port, path: "/slow", agent: false });
    outgoing.on("error", () => undefined);
    outgoing.end();
    await waitFor("the handler to start", () => signal);
    outgoing.destroy();
    await waitFor("the signal to abort", () => (signal!.aborted ? true : undefined));
    release();
  });
});

/** Events of nothing, ending when `signal` aborts: a source that waits. */
async function* silentUntil(signal: AbortSignal): AsyncGenerator<never> {
  if (signal.aborted) return;
  await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
}

/** A seat count per `tick` of the bus, until the client goes away. */
async function* ticks(bus: EventEmitter, signal: AbortSignal, counts: { opened: number; closed: number }) {
  counts.opened++;
  try {
    for await (const [n] of on(bus, "tick", { signal }))
      yield { data: { course_id: 1, seats_left: n as number } };
  } catch (error) {
    if (!signal.aborted) throw error;
  } finally {
    counts.closed++;
  }
}

async function firstEvent(response: IncomingMessage): Promise<void> {
  for await (const _event of readEvents(response)) return;
}

/** A probe for waitFor: the value once it has stayed the same over five looks. */
function stableValue(read: () => number): () => number | undefined {
  let last = -1;
  let same = 0;
  return () => {
    const value = read();
    same = value === last ? same + 1 : 0;
    last = value;
    return same >= 5 && value > 0 ? value : undefined;
  };
}

describe("closing an app with event streams open", () => {
  it("ends each stream after what was sent, closes its events, and does not wait for the deadline", async () => {
    let closed = 0;
    async function* forever(signal: AbortSignal) {
      try {
        for (let n = 1; !signal.aborted; n++) {
          yield { data: { course_id: 7, seats_left: n } };
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      } finally {
        closed++;
      }
    }
    const seats = endpoint({
      returns: seatEvents,
      handler: (request) => new EventStreamResponse(forever(request.signal)),
    });
    const app = createApp({ routes: [path("/seats", { endpoint: seats })] });
    const port = await listening(app);
    const first = await openStream(port, "/seats");
    const second = await openStream(port, "/seats");
    const bodies = Promise.all([bodyOf(first.response), bodyOf(second.response)]);
    await new Promise((resolve) => setTimeout(resolve, 100));

    // A deadline far past the test's own timeout: close() returns because it ended the streams.
    await app.close({ timeout: 600_000 });
    const [one, two] = await bodies;
    expect(one).toMatch(/^: connected\n\n(data: \{"course_id":7,"seats_left":\d+\}\n\n)+$/);
    expect(two).toMatch(/^: connected\n\n(data: \{"course_id":7,"seats_left":\d+\}\n\n)+$/);
    // An iterator waiting inside its loop closes once it reaches its next yield.
    await waitFor("both iterators closed", () => (closed === 2 ? true : undefined));
  });
});

describe("closing an app with an event stream whose source waits", () => {
  it("aborts the request's signal, so a source waiting for its next event stops and leaves no listener", async () => {
    const bus = new EventEmitter();
    let closed = 0;
    async function* changes(signal: AbortSignal) {
      try {
        yield { data: { course_id: 7, seats_left: 3 } };
        for await (const [seats] of on(bus, "seats", { signal }))
          yield { data: { course_id: 7, seats_left: seats } };
      } finally {
        closed++;
      }
    }
    const seats = endpoint({
      returns: seatEvents,
      handler: (request) => new EventStreamResponse(changes(request.signal)),
    });
    const app = createApp({ routes: [path("/seats", { endpoint: seats })] });
    const port = await listening(app);
    const { response } = await openStream(port, "/seats");
    const body = bodyOf(response);
    await waitFor("the stream's listener", () => (bus.listenerCount("seats") === 1 ? true : undefined));

    await app.close({ timeout: 10_000 });
    expect(await body).toBe(': connected\n\ndata: {"course_id":7,"seats_left":3}\n\n');
    await waitFor("the source closed", () => (closed === 1 ? true : undefined));
    expect(bus.listenerCount("seats")).toBe(0);
  });
});

describe("audit: an event whose id or type holds a line break, over HTTP", () => {
  it("is refused as a refused model is: the events before it are sent, the connection closed, the error logged", async () => {
    const logger = { error: vi.fn() };
    const forging = endpoint({
      returns: seatEvents,
      handler: () =>
        new EventStreamResponse([
          { id: "1", data: { course_id: 1, seats_left: 1 } },
          { id: "2\ndata: forged", data: { course_id: 1, seats_left: 0 } },
          { id: "3", data: { course_id: 1, seats_left: 9 } },
        ]),
    });
    const port = await listening(
      createApp({ routes: [path("/forging", { endpoint: forging, name: "forging" })], logger }),
    );
    const { response } = await openStream(port, "/forging");
    const received: unknown[] = [];
    await expect(
      (async () => {
        for await (const event of readEvents(response)) received.push([event.id, event.data]);
      })(),
    ).rejects.toThrow("aborted");
    expect(received).toEqual([["1", { course_id: 1, seats_left: 1 }]]);
    const [details, message] = logger.error.mock.calls[0]!;
    expect([logger.error.mock.calls.length, message, details.err.message]).toEqual([
      1,
      "An event stream failed after its answer began; its connection was closed",
      `An event's id must be a string without line breaks or NUL, got "2\\ndata: forged"`,
    ]);
  });
});

describe("an event stream a middleware or an exception handler returns, failing mid-stream", () => {
  async function* failingAfterOne(): AsyncGenerator<{ data: { course_id: number; seats_left: number } }> {
    yield { data: { course_id: 1, seats_left: 1 } };
    throw new Error("the feed went away");
  }

  it("is logged as an endpoint's is, once, whichever made it", async () => {
    const logger = { error: vi.fn() };
    const plain = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("plain") });
    const feed = endpoint({ returns: seatEvents, handler: () => new EventStreamResponse(failingAfterOne()) });
    const passing: Middleware = async (request, next) => next(request);
    const replacing: Middleware = () => new EventStreamResponse(failingAfterOne());
    const notFound = exceptionHandler(NotFoundError, () => new EventStreamResponse(failingAfterOne()));
    const port = await listening(
      createApp({
        routes: [
          path("/feed", { endpoint: feed, name: "feed", middleware: [passing, passing] }),
          path("/replaced", { endpoint: plain, name: "replaced", middleware: [replacing, passing] }),
          path("/plain", { endpoint: plain, name: "plain" }),
        ],
        exceptionHandlers: [notFound],
        logger,
      }),
    );
    const received: unknown[] = [];
    for (const target of ["/feed", "/replaced", "/nowhere"]) {
      const { response } = await openStream(port, target);
      await expect(
        (async () => {
          for await (const event of readEvents(response)) received.push([target, event.data]);
        })(),
      ).rejects.toThrow("aborted");
    }
    expect(received).toEqual([
      ["/feed", { course_id: 1, seats_left: 1 }],
      ["/replaced", { course_id: 1, seats_left: 1 }],
      ["/nowhere", { course_id: 1, seats_left: 1 }],
    ]);
    await waitFor("three failures logged", () => (logger.error.mock.calls.length >= 3 ? true : undefined));
    // A request answered in full after them: time enough for a second record of one stream to show.
    const { response: after } = await openStream(port, "/plain");
    expect(await bodyOf(after)).toBe("plain");
    expect(
      logger.error.mock.calls.map(([details, message]) => [details.path, details.err.message, message]),
    ).toEqual(
      ["/feed", "/replaced", "/nowhere"].map((target) => [
        target,
        "the feed went away",
        "An event stream failed after its answer began; its connection was closed",
      ]),
    );
  });
});

describe("audit: the heartbeat's default", () => {
  /** A source that never yields, as a quiet feed does; closing it is allowed. */
  const quietSource = () => ({
    [Symbol.asyncIterator]: () => ({
      next: () => new Promise<IteratorResult<{ data: Seats }>>(() => {}),
      return: async () => ({ done: true as const, value: undefined }),
    }),
  });
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

  it("is a comment after 15 seconds without an event; heartbeat: 0 sends none", async () => {
    // The stream's clock is faked: the test waits for no real interval.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const byDefault = new EventStreamResponse(quietSource()).body;
    const without = new EventStreamResponse(quietSource(), { heartbeat: 0 }).body;
    try {
      const sent = { byDefault: "", without: "" };
      byDefault.on("data", (chunk) => (sent.byDefault += chunk));
      without.on("data", (chunk) => (sent.without += chunk));
      await turn();
      vi.advanceTimersByTime(14_999);
      await turn();
      const before = { ...sent };
      vi.advanceTimersByTime(1);
      await turn();
      const atFifteenSeconds = sent.byDefault;
      vi.advanceTimersByTime(3_600_000);
      await turn();
      expect([before, atFifteenSeconds, sent.without]).toEqual([
        { byDefault: ": connected\n\n", without: ": connected\n\n" },
        ": connected\n\n: heartbeat\n\n",
        ": connected\n\n",
      ]);
    } finally {
      byDefault.destroy();
      without.destroy();
      vi.useRealTimers();
    }
  });
});
