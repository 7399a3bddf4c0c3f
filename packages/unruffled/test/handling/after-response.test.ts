import type { ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { waitFor } from "process-support";
import { createApp } from "unruffled";
import {
  HttpRequest,
  HttpResponse,
  JsonResponse,
  PlainTextResponse,
  type RawRequest,
  WebBodySource,
} from "unruffled/http";
import { dependency, endpoint, p, path } from "unruffled/route";
import { startServer, testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";

/** A promise with its resolve function, for tasks the test lets finish. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

function errorLog() {
  const records: { details: Record<string, unknown>; message: string }[] = [];
  return {
    records,
    logger: {
      error: (details: Record<string, unknown>, message: string) => records.push({ details, message }),
    },
  };
}

/** A request that keeps the Node response it is answered on, so that a task can look at it. */
class WatchedRequest extends HttpRequest {
  readonly nodeResponse: ServerResponse;

  constructor(raw: RawRequest) {
    super(raw);
    this.nodeResponse = raw.connection as ServerResponse;
  }
}

describe("request.afterResponse(task)", () => {
  it("starts the task only once the whole answer is written out", async () => {
    // 4 MiB: more than the socket takes at once, so the answer is finished only once the client reads it.
    const body = "x".repeat(4 * 1024 * 1024);
    const seen: { ended: boolean; finished: boolean }[] = [];
    const app = createApp({
      requestClass: WatchedRequest,
      routes: [
        path("/export", {
          endpoint: endpoint({
            returns: PlainTextResponse,
            handler(request) {
              const { nodeResponse } = request as WatchedRequest;
              request.afterResponse(() => {
                seen.push({ ended: nodeResponse.writableEnded, finished: nodeResponse.writableFinished });
              });
              return new PlainTextResponse(body);
            },
          }),
        }),
      ],
    });
    const server = await startServer(app);
    try {
      const response = await server.fetch("/export");
      expect([response.status, (await response.text()).length]).toEqual([200, body.length]);
      await app.settled();
      expect(seen).toEqual([{ ended: true, finished: true }]);
    } finally {
      await server.close();
    }
  });

  it("runs the task after the client has the answer", async () => {
    const events: string[] = [];
    const release = gate();
    const finished = gate();
    const app = createApp({
      routes: [
        path("/signup", {
          endpoint: endpoint({
            returns: JsonResponse,
            handler(request) {
              request.afterResponse(async () => {
                events.push("task started");
                await release.opened;
                events.push("task finished");
                finished.open();
              });
              return new JsonResponse({ ok: true });
            },
          }),
        }),
      ],
    });
    const server = await startServer(app);
    try {
      const response = await server.fetch("/signup");
      expect([response.status, await response.json()]).toEqual([200, { ok: true }]);
      events.push("answer read");
      release.open();
      await finished.opened;
      expect(events).toEqual(["task started", "answer read", "task finished"]);
    } finally {
      await server.close();
    }
  });

  it("runs tasks one after another in the order queued, a failing one logged with the request id", async () => {
    const ran: string[] = [];
    const log = errorLog();
    const app = createApp({
      logger: log.logger,
      routes: [
        path("/", {
          endpoint: endpoint({
            returns: JsonResponse,
            handler(request) {
              request.afterResponse(async () => {
                await new Promise((resolve) => setTimeout(resolve, 20));
                ran.push("first");
              });
              request.afterResponse(() => {
                throw new Error("mail server down");
              });
              request.afterResponse(() => {
                ran.push("third");
              });
              return new JsonResponse({ ok: true });
            },
          }),
        }),
      ],
    });
    const response = await testClient(app).get("/", { headers: { "x-request-id": "req-42" } });
    expect(response.status).toBe(200);
    expect(ran).toEqual(["first", "third"]);
    expect(log.records).toEqual([
      {
        details: { err: new Error("mail server down"), reqId: "req-42", method: "GET", path: "/" },
        message: "A task queued with afterResponse() failed",
      },
    ]);
  });

  it("runs after an error answer too", async () => {
    const ran: string[] = [];
    const app = createApp({
      logger: errorLog().logger,
      routes: [
        path("/", {
          endpoint: endpoint({
            returns: JsonResponse,
            handler(request) {
              request.afterResponse(() => {
                ran.push("cleaned up");
              });
              throw new Error("boom");
            },
          }),
        }),
      ],
    });
    const server = await startServer(app);
    try {
      expect((await server.fetch("/")).status).toBe(500);
      await app.settled();
      expect(ran).toEqual(["cleaned up"]);
    } finally {
      await server.close();
    }
  });

  it("runs through app.fetch as well", async () => {
    const done = gate();
    const app = createApp({
      routes: [
        path("/", {
          endpoint: endpoint({
            returns: JsonResponse,
            handler(request) {
              request.afterResponse(done.open);
              return new JsonResponse({ ok: true });
            },
          }),
        }),
      ],
    });
    const response = await app.fetch(new Request("http://localhost/"));
    expect(response.status).toBe(200);
    await done.opened;
  });

  it("refuses what is not a function, in the handler, as a 500", async () => {
    const app = createApp({
      logger: errorLog().logger,
      routes: [
        path("/", {
          endpoint: endpoint({
            returns: JsonResponse,
            handler(request) {
              request.afterResponse("later" as never);
              return new JsonResponse({ ok: true });
            },
          }),
        }),
      ],
    });
    const response = await testClient(app).get("/");
    expect([response.status, response.json()]).toEqual([500, { detail: "Internal Server Error" }]);
  });
});

describe("app.close() and the work after the answer", () => {
  it("waits for work still running before onClose", async () => {
    const events: string[] = [];
    const app = createApp({
      onClose: () => {
        events.push("onClose");
      },
      routes: [
        path("/", {
          endpoint: endpoint({
            returns: JsonResponse,
            handler(request) {
              request.afterResponse(async () => {
                await new Promise((resolve) => setTimeout(resolve, 100));
                events.push("task finished");
              });
              return new JsonResponse({ ok: true });
            },
          }),
        }),
      ],
    });
    const server = await startServer(app);
    expect((await server.fetch("/")).status).toBe(200);
    await server.close();
    expect(events).toEqual(["task finished", "onClose"]);
  });

  it("abandons work past its timeout and logs each request it abandoned: id, method and path", async () => {
    const log = errorLog();
    const never = gate();
    const app = createApp({
      logger: log.logger,
      routes: [
        path("/reports/{id}", {
          endpoint: endpoint({
            returns: JsonResponse,
            handler(request) {
              request.afterResponse(() => never.opened);
              return new JsonResponse({ ok: true });
            },
          }),
          methods: ["POST"],
        }),
        path("/quick", {
          endpoint: endpoint({
            returns: JsonResponse,
            handler(request) {
              request.afterResponse(() => undefined);
              return new JsonResponse({ ok: true });
            },
          }),
        }),
      ],
    });
    await app.listen({ port: 0 });
    const base = `http://127.0.0.1:${app.address()!.port}`;
    const stuck = await fetch(`${base}/reports/7?format=pdf`, {
      method: "POST",
      headers: { "x-request-id": "req-stuck" },
    });
    const quick = await fetch(`${base}/quick`, { headers: { "x-request-id": "req-quick" } });
    expect([stuck.status, quick.status]).toEqual([200, 200]);
    const timeout = 200;
    const started = performance.now();
    await app.close({ timeout });
    const elapsed = performance.now() - started;
    // Named by its request, without the query string; the finished work of req-quick is not named.
    expect(log.records).toEqual([
      {
        details: { reqId: "req-stuck", method: "POST", path: "/reports/7" },
        message:
          "The app closed while a task queued with afterResponse() was still running; it was abandoned",
      },
    ]);
    // Not before the deadline; resolving at all (the task never ends) is the rule.
    expect(elapsed).toBeGreaterThanOrEqual(timeout - 20);
    never.open();
  });
});

describe("audit: app.handle() and the work after the answer", () => {
  it("runs no onStartup hook; runs the tasks once the caller has the response, or at startWork(request) when told false", async () => {
    const events: string[] = [];
    const queuing = endpoint({
      returns: PlainTextResponse,
      handler: (request) => {
        const id = request.headers["x-request-id"];
        events.push(`handler ${id}`);
        request.afterResponse(() => void events.push(`task ${id}`));
        return new PlainTextResponse("queued");
      },
    });
    const app = createApp({
      routes: [path("/queue", { endpoint: queuing })],
      onStartup: () => void events.push("startup"),
    });
    const request = (id: string) =>
      app.createRequest({
        method: "GET",
        url: "/queue",
        headers: { "x-request-id": id },
        socket: undefined,
        body: new WebBodySource(null, null),
      });
    const first = await app.handle(request("a"));
    await app.settled();
    expect([first.status, first.body, events]).toEqual([200, "queued", ["handler a", "task a"]]);
    const held = request("b");
    const second = await app.handle(held, false);
    await app.settled();
    expect([second.status, events]).toEqual([200, ["handler a", "task a", "handler b"]]);
    app.startWork(held);
    await app.settled();
    await app.startup();
    expect(events).toEqual(["handler a", "task a", "handler b", "task b", "startup"]);
  });
});

describe("audit: a task that queues another", () => {
  it("runs it after those queued before it, one after another; the test client waits for it", async () => {
    const ran: string[] = [];
    const chained = endpoint({
      returns: PlainTextResponse,
      handler: (request) => {
        request.afterResponse(async () => {
          ran.push("first");
          request.afterResponse(() => void ran.push("queued by first"));
        });
        request.afterResponse(() => void ran.push("second"));
        return new PlainTextResponse("ok");
      },
    });
    const app = createApp({ routes: [path("/chain", { endpoint: chained })] });
    const response = await testClient(app).get("/chain");
    expect([response.status, ran]).toEqual([200, ["first", "second", "queued by first"]]);
  });
});

describe("audit: with app.fetch, the work starts once the body was read or cancelled", () => {
  it("runs the tasks once a streamed body of strings was read to its end, or cancelled, not before", async () => {
    const ran: string[] = [];
    let taskRan = gate();
    let body: Readable | undefined;
    const streaming = endpoint({
      returns: HttpResponse,
      handler(request) {
        request.afterResponse(() => {
          ran.push(request.headers["x-request-id"] as string);
          taskRan.open();
        });
        // A body of strings still being made: its last part comes when the test says, as rows
        // read one by one from a session would.
        body = new Readable({ objectMode: true, read() {} });
        body.push("first ");
        return new HttpResponse(body, {}, "text/plain");
      },
    });
    const app = createApp({ routes: [path("/stream", { endpoint: streaming })] });
    const ask = (id: string) =>
      app.fetch(new Request("http://localhost/stream", { headers: { "x-request-id": id } }));
    const turns = async () => {
      for (let turn = 0; turn < 5; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
    };

    const cancelled = await ask("cancelled");
    await turns();
    const beforeCancel = [...ran];
    await cancelled.body!.cancel();
    await taskRan.opened;

    taskRan = gate();
    const read = await ask("read");
    await turns();
    const beforeRead = [...ran];
    body!.push("second");
    body!.push(null);
    const text = await read.text();
    await taskRan.opened;
    expect([beforeCancel, beforeRead, text, ran]).toEqual([
      [],
      ["cancelled"],
      "first second",
      ["cancelled", "read"],
    ]);
  });

  it("ends a streamed body's async generator when the client cancels, and starts the tasks and clean-ups at once, not when its await settles", async () => {
    const ran: string[] = [];
    // The generator waits on something that does not watch request.signal: a query's next batch.
    const nextBatch = gate();
    const session = dependency({
      async *resolve(request) {
        try {
          yield "session";
        } finally {
          ran.push(`clean-up, signal ${request.signal.aborted ? "aborted" : "not aborted"}`);
        }
      },
    });
    const rows = endpoint({
      params: { session: p.Depends(session) },
      returns: HttpResponse,
      handler(request) {
        request.afterResponse(() => void ran.push("task"));
        async function* source() {
          try {
            yield "row 1\n";
            await nextBatch.opened;
            ran.push("the await settled");
            yield "row 2\n";
            ran.push("went on after return()");
          } finally {
            ran.push("generator closed");
          }
        }
        return new HttpResponse(Readable.from(source()), {}, "text/plain");
      },
    });
    const app = createApp({ routes: [path("/rows", { endpoint: rows })] });
    const response = await app.fetch(new Request("http://localhost/rows"));
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("row 1\n");
    await reader.cancel();
    await waitFor("the clean-up after the cancelled body", () =>
      ran.some((entry) => entry.startsWith("clean-up")) ? true : undefined,
    );
    const beforeTheAwaitSettled = [...ran];
    nextBatch.open();
    await waitFor("the generator to close", () => (ran.includes("generator closed") ? true : undefined));
    expect([beforeTheAwaitSettled, ran]).toEqual([
      ["task", "clean-up, signal aborted"],
      ["task", "clean-up, signal aborted", "the await settled", "generator closed"],
    ]);
  });
});
