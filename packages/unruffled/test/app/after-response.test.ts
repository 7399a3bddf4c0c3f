import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";
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

describe("request.afterResponse(task)", () => {
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

  it("abandons work past its timeout and says so in the log", async () => {
    const log = errorLog();
    const never = gate();
    const app = createApp({
      logger: log.logger,
      routes: [
        path("/", {
          endpoint: endpoint({
            returns: JsonResponse,
            handler(request) {
              request.afterResponse(() => never.opened);
              return new JsonResponse({ ok: true });
            },
          }),
        }),
      ],
    });
    await app.listen({ port: 0 });
    expect((await fetch(`http://127.0.0.1:${app.address()!.port}/`)).status).toBe(200);
    const started = performance.now();
    await app.close({ timeout: 200 });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(log.records).toEqual([
      {
        details: { abandoned: 1 },
        message: "Closed with the work after 1 answer(s) still running; it was abandoned",
      },
    ]);
    never.open();
  });
});
