import { waitFor } from "process-support";
import { createApp, StartupError, ValueError } from "unruffled";
import { PlainTextResponse } from "unruffled/http";
import { dependency, endpoint, path } from "unruffled/route";
import { startServer, testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";

const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("Hello") });
const routes = [path("/hello", { endpoint: hello })];

describe("createApp({ onStartup })", () => {
  it("runs the hooks one after another, in order, before the server accepts a connection", async () => {
    const events: string[] = [];
    const app = createApp({
      routes,
      onStartup: [
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          events.push(`first, listening: ${app.address() !== undefined}`);
        },
        () => {
          events.push(`second, listening: ${app.address() !== undefined}`);
        },
      ],
    });
    const server = await startServer(app);
    try {
      events.push(`served: ${await (await server.fetch("/hello")).text()}`);
      expect(events).toEqual(["first, listening: false", "second, listening: false", "served: Hello"]);
    } finally {
      await server.close();
    }
  });

  it("makes listen() reject with one line naming the hook, and runs neither the later hooks nor the server", async () => {
    const ran: string[] = [];
    const app = createApp({
      routes,
      onStartup: [
        () => {
          ran.push("first");
        },
        async function openDatabase() {
          throw new Error("connect ECONNREFUSED 127.0.0.1:5432\n    at the driver");
        },
        () => {
          ran.push("third");
        },
      ],
    });
    const failure = await app.listen({ port: 0 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StartupError);
    expect((failure as StartupError).message).toBe(
      "onStartup failed (hook 2 of 3, openDatabase): connect ECONNREFUSED 127.0.0.1:5432 at the driver",
    );
    expect(((failure as StartupError).cause as Error).message).toMatch(/^connect ECONNREFUSED/);
    expect([ran, app.address()]).toEqual([["first"], undefined]);
  });

  it("runs the hooks once, before the test client's first request", async () => {
    let started = 0;
    const app = createApp({
      routes,
      onStartup: () => {
        started++;
      },
    });
    const client = testClient(app);
    await client.get("/hello");
    await client.get("/hello");
    expect(started).toBe(1);
  });

  it("runs the hooks before fetch answers its first request", async () => {
    const events: string[] = [];
    const app = createApp({
      routes: [
        path("/hello", {
          endpoint: endpoint({
            returns: PlainTextResponse,
            handler: () => {
              events.push("answered");
              return new PlainTextResponse("Hello");
            },
          }),
        }),
      ],
      onStartup: () => {
        events.push("started");
      },
    });
    await app.fetch(new Request("http://localhost/hello"));
    expect(events).toEqual(["started", "answered"]);
  });

  it("pairs with onClose: close() runs it, and the next start runs the hooks again", async () => {
    const events: string[] = [];
    const app = createApp({
      routes,
      onStartup: () => {
        events.push("startup");
      },
      onClose: () => {
        events.push("close");
      },
    });
    await app.listen({ port: 0 });
    await app.close();
    await app.listen({ port: 0 });
    await app.close();
    await app.close();
    expect(events).toEqual(["startup", "close", "startup", "close"]);
  });

  it("closes, with the app, the copies that overrides made and that started", async () => {
    const events: string[] = [];
    const app = createApp({
      routes,
      onStartup: () => void events.push("startup"),
      onClose: () => void events.push("close"),
    });
    const replaced = dependency({ resolve: () => "original" });
    const fake = dependency({ resolve: () => "fake" });
    // One copy that started (a request), one that never did: only the first has anything to close.
    await testClient(app, { overrides: [[replaced, fake]] }).get("/hello");
    testClient(app, { overrides: [[replaced, fake]] });
    const server = await startServer(app, { overrides: [[replaced, fake]] });
    await server.close();
    expect(events).toEqual(["startup", "startup", "close"]);
    await app.close();
    expect(events).toEqual(["startup", "startup", "close", "close"]);
    await app.close();
    expect(events).toEqual(["startup", "startup", "close", "close"]);
  });

  it("refuses an onStartup that is not a function or a list of them when the app is built", () => {
    expect(() => createApp({ routes, onStartup: "open" as never })).toThrow(
      new ValueError("createApp({ onStartup }) takes a function, or a list of functions, run in order."),
    );
  });
});

describe("audit: a start that failed", () => {
  it("is not undone by close(): onClose does not run, and what the earlier hooks opened is left to them", async () => {
    const events: string[] = [];
    const app = createApp({
      routes,
      onStartup: [
        function openPool() {
          events.push("pool opened");
        },
        function warmCache() {
          throw new Error("cache unreachable");
        },
      ],
      onClose: () => {
        events.push("onClose");
      },
    });
    await expect(app.listen({ port: 0 })).rejects.toThrow(
      new StartupError("onStartup failed (hook 2 of 2, warmCache): cache unreachable"),
    );
    await app.close();
    expect([events, app.address()]).toEqual([["pool opened"], undefined]);
  });
});

describe("audit-b: onStartup through app.fetch", () => {
  it("runs the hooks once for first requests that arrive together, all answered after them, and again after close()", async () => {
    const events: string[] = [];
    let release!: () => void;
    const opened = new Promise<void>((resolve) => {
      release = resolve;
    });
    const app = createApp({
      routes: [
        path("/hello", {
          endpoint: endpoint({
            returns: PlainTextResponse,
            handler: () => {
              events.push("answered");
              return new PlainTextResponse("Hello");
            },
          }),
        }),
      ],
      onStartup: async () => {
        events.push("startup");
        await opened;
      },
      onClose: () => void events.push("close"),
    });
    const answers = [1, 2, 3].map(() => app.fetch(new Request("http://localhost/hello")));
    await new Promise((resolve) => setImmediate(resolve));
    release();
    expect((await Promise.all(answers)).map((answer) => answer.status)).toEqual([200, 200, 200]);
    await app.close();
    await app.fetch(new Request("http://localhost/hello"));
    expect(events).toEqual(["startup", "answered", "answered", "answered", "close", "startup", "answered"]);
  });

  it("runs the hooks again for the test client's first request after close()", async () => {
    const events: string[] = [];
    const app = createApp({
      routes,
      onStartup: () => void events.push("startup"),
      onClose: () => void events.push("close"),
    });
    const client = testClient(app);
    await client.get("/hello");
    await app.close();
    await client.get("/hello");
    await client.get("/hello");
    expect(events).toEqual(["startup", "close", "startup"]);
  });

  it("starts a closed app again only once close() has finished: a request during onClose does not", async () => {
    const events: string[] = [];
    let closing!: () => void;
    const released = new Promise<void>((resolve) => {
      closing = resolve;
    });
    const app = createApp({
      routes,
      onStartup: () => void events.push("startup"),
      onClose: async () => {
        events.push("onClose begins");
        await released;
        events.push("onClose ends");
      },
    });
    await app.fetch(new Request("http://localhost/hello"));
    const closed = app.close();
    await waitFor("onClose to begin", () => (events.includes("onClose begins") ? true : undefined));
    const during = await app.fetch(new Request("http://localhost/hello"));
    closing();
    await closed;
    const after = await app.fetch(new Request("http://localhost/hello"));
    expect([during.status, after.status]).toEqual([200, 200]);
    expect(events).toEqual(["startup", "onClose begins", "onClose ends", "startup"]);
  });
});
