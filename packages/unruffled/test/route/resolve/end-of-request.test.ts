// The end of a request, in FastAPI's order (docs/dependencies.md, "When a clean-up runs"): tasks
// after the answer use the still-open yield dependencies; an error reaches the generators before
// its answer, and they may translate it; scope "function" ends before the answer; and the test
// client keeps a socket's order (FastAPI's test_dependency_contextmanager.py,
// test_dependency_after_yield_*.py, test_background_tasks and Depends(scope="function")).
import { Readable } from "node:stream";
import { type App, createApp, type ErrorLogger, HttpError } from "unruffled";
import { EventStreamResponse, HttpResponse, JsonResponse } from "unruffled/http";
import { dependency, endpoint, p, path } from "unruffled/route";
import { startServer, testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";

class UniqueViolation extends Error {}

function recordingLogger(): ErrorLogger & { records: [Record<string, unknown>, string][] } {
  const records: [Record<string, unknown>, string][] = [];
  return { records, error: (details, message) => records.push([details, message]) };
}

/** A session whose every step is logged; it refuses to be used once closed. */
function sessionApp(log: string[], logger = recordingLogger()) {
  const session = dependency({
    name: "session",
    async *resolve() {
      const state = { open: true };
      const use = (what: string) => {
        if (!state.open) throw new Error("session closed");
        log.push(what);
        return what;
      };
      log.push("open");
      try {
        yield use;
        log.push("commit");
      } catch (error) {
        log.push(`rollback: ${(error as Error).message}`);
        if (error instanceof UniqueViolation) throw new HttpError(409, "That email is already registered");
        throw error;
      } finally {
        state.open = false;
        log.push("closed");
      }
    },
  });
  const committed = dependency({
    name: "committed",
    scope: "function",
    params: { use: p.Depends(session) },
    *resolve(_request, { use }) {
      log.push("lock");
      yield use;
      log.push("unlock");
    },
  });
  const routes = [
    path("/background", {
      endpoint: endpoint({
        params: { use: p.Depends(session) },
        returns: JsonResponse,
        handler: (request, { use }) => {
          request.afterResponse(() => {
            use("task writes with the session");
          });
          return new JsonResponse({ ok: true });
        },
      }),
    }),
    path("/conflict", {
      endpoint: endpoint({
        params: { use: p.Depends(session) },
        returns: JsonResponse,
        handler: () => {
          throw new UniqueViolation("duplicate key value violates unique constraint");
        },
      }),
    }),
    path("/stream", {
      endpoint: endpoint({
        params: { use: p.Depends(session) },
        returns: HttpResponse,
        handler: (_request, { use }) =>
          new HttpResponse(
            Readable.from(
              (function* () {
                yield Buffer.from(use("row 1\n"));
                yield Buffer.from(use("row 2\n"));
              })(),
            ),
          ),
      }),
    }),
    path("/events", {
      endpoint: endpoint({
        params: { use: p.Depends(session) },
        returns: HttpResponse,
        handler: (_request, { use }) =>
          new EventStreamResponse(
            (async function* () {
              yield { data: use("event 1") };
              await new Promise((resolve) => setTimeout(resolve, 10));
              yield { data: use("event 2") };
            })(),
          ),
      }),
    }),
    path("/function", {
      endpoint: endpoint({
        params: { use: p.Depends(committed) },
        returns: JsonResponse,
        handler: (request, { use }) => {
          request.afterResponse(() => {
            log.push("task");
          });
          use("handler");
          return new JsonResponse({ ok: true });
        },
      }),
    }),
  ];
  return createApp({ logger, routes });
}

/**
 * Runs one request over a socket, through the test client and through `app.fetch`; returns the answer and the log of
 * each. What happens after the answer races with the client reading it, so the logs are compared
 * without the line that says the client has it.
 */
async function overSocketAndInTests(run: (app: App, via: Via) => Promise<string>) {
  const results: Record<string, { answer: string; log: string[] }> = {};
  for (const via of ["socket", "test", "fetch"] as const) {
    const log: string[] = [];
    const app = sessionApp(log);
    const answer = await run(app, via);
    log.push(CLIENT_HAS_IT);
    await app.settled();
    results[via] = { answer, log };
  }
  const withoutClient = (log: string[]) => log.filter((line) => line !== CLIENT_HAS_IT);
  for (const via of ["test", "fetch"]) {
    expect(results[via]!.answer).toBe(results.socket!.answer);
    expect(withoutClient(results[via]!.log)).toEqual(withoutClient(results.socket!.log));
  }
  return { answer: results.socket!.answer, log: withoutClient(results.socket!.log), logs: results };
}

const CLIENT_HAS_IT = "client has the answer";

type Via = "socket" | "test" | "fetch";

async function fetchText(app: App, via: Via, at: string): Promise<string> {
  if (via === "fetch") {
    const response = await app.fetch(new Request(`http://localhost${at}`));
    return `${response.status} ${await response.text()}`;
  }
  if (via === "test") {
    const response = await testClient(app).get(at);
    return `${response.status} ${response.text}`;
  }
  const server = await startServer(app);
  try {
    const response = await server.fetch(at);
    return `${response.status} ${await response.text()}`;
  } finally {
    await server.close();
  }
}

describe("the end of a request", () => {
  it("runs afterResponse() tasks while the yield dependencies are open, then their clean-up", async () => {
    const { answer, log } = await overSocketAndInTests((app, via) => fetchText(app, via, "/background"));
    expect(answer).toBe('200 {"ok":true}');
    expect(log).toEqual(["open", "task writes with the session", "commit", "closed"]);
  });

  it("lets a clean-up translate the handler's error into an HTTP error, whose answer the client gets", async () => {
    const { answer, logs } = await overSocketAndInTests((app, via) => fetchText(app, via, "/conflict"));
    expect(answer).toBe('409 {"detail":"That email is already registered"}');
    for (const { log } of Object.values(logs)) {
      expect(log).toEqual([
        "open",
        "rollback: duplicate key value violates unique constraint",
        "closed",
        CLIENT_HAS_IT,
      ]);
    }
  });

  it("a streamed body reads from the session in tests as over a socket: the clean-up waits for the body", async () => {
    const { answer, log } = await overSocketAndInTests((app, via) => fetchText(app, via, "/stream"));
    expect(answer).toBe("200 row 1\nrow 2\n");
    expect(log).toEqual(["open", "row 1\n", "row 2\n", "commit", "closed"]);
  });

  // The test client does not read an event stream to its end (docs/testing.md): a socket and app.fetch do.
  it("audit: an event stream reads from the session over a socket and through fetch: the clean-up waits for its last event", async () => {
    for (const via of ["socket", "fetch"] as const) {
      const log: string[] = [];
      const app = sessionApp(log);
      const answer = await fetchText(app, via, "/events");
      await app.settled();
      expect([via, answer, log]).toEqual([
        via,
        '200 : connected\n\ndata: "event 1"\n\ndata: "event 2"\n\n',
        ["open", "event 1", "event 2", "commit", "closed"],
      ]);
    }
  });

  it('scope "function" ends before the answer is written, and before the tasks', async () => {
    const { answer, log, logs } = await overSocketAndInTests((app, via) => fetchText(app, via, "/function"));
    expect(answer).toBe('200 {"ok":true}');
    expect(log).toEqual(["open", "lock", "handler", "unlock", "task", "commit", "closed"]);
    for (const { log: each } of Object.values(logs)) {
      expect(each.indexOf(CLIENT_HAS_IT)).toBeGreaterThan(each.indexOf("unlock"));
    }
  });
});

describe("clean-ups that raise", () => {
  it('before the answer (scope "function") are answered by the exception handlers; the request-scoped ones get that error', async () => {
    const log: string[] = [];
    const outer = dependency({
      name: "outer",
      async *resolve() {
        try {
          yield 1;
          log.push("outer commit");
        } catch (error) {
          log.push(`outer got: ${(error as Error).message}`);
          throw error;
        }
      },
    });
    const transaction = dependency({
      name: "transaction",
      scope: "function",
      params: { outer: p.Depends(outer) },
      *resolve() {
        yield "tx";
        throw new HttpError(503, "The commit failed; try again");
      },
    });
    const app = createApp({
      routes: [
        path("/commit", {
          endpoint: endpoint({
            params: { tx: p.Depends(transaction) },
            returns: JsonResponse,
            handler: () => new JsonResponse({ saved: true }),
          }),
        }),
      ],
    });
    const response = await testClient(app).get("/commit");
    expect([response.status, response.text]).toEqual([503, '{"detail":"The commit failed; try again"}']);
    expect(log).toEqual(["outer got: The commit failed; try again"]);
  });

  it("after the answer are logged with the request id, never sent", async () => {
    const logger = recordingLogger();
    const flaky = dependency({
      name: "flaky",
      *resolve() {
        yield 1;
        throw new Error("connection reset");
      },
    });
    const app = createApp({
      logger,
      routes: [
        path("/", {
          endpoint: endpoint({
            params: { flaky: p.Depends(flaky) },
            returns: JsonResponse,
            handler: () => new JsonResponse({ ok: true }),
          }),
        }),
      ],
    });
    const server = await startServer(app);
    try {
      const response = await server.fetch("/", { headers: { "x-request-id": "req-77" } });
      expect([response.status, await response.text()]).toEqual([200, '{"ok":true}']);
      await app.settled();
    } finally {
      await server.close();
    }
    expect(
      logger.records.map(([details, message]) => [details.reqId, (details.err as Error).message, message]),
    ).toEqual([
      [
        "req-77",
        'The clean-up of dependency "flaky" failed: connection reset',
        "A task queued with afterResponse() failed",
      ],
    ]);
  });

  it("an error no clean-up translates is answered as before, and each generator sees it once", async () => {
    const seen: string[] = [];
    const watcher = (name: string) =>
      dependency({
        name,
        async *resolve() {
          try {
            yield name;
          } catch (error) {
            seen.push(`${name}: ${(error as Error).message}`);
            throw error;
          }
        },
      });
    const first = watcher("first");
    const second = watcher("second");
    const app = createApp({
      logger: { error: () => {} },
      routes: [
        path("/", {
          endpoint: endpoint({
            params: { a: p.Depends(first), b: p.Depends(second), page: p.Query(z.int()) },
            returns: JsonResponse,
            handler: () => {
              throw new Error("boom");
            },
          }),
        }),
      ],
    });
    const client = testClient(app);
    expect((await client.get("/?page=1")).status).toBe(500);
    expect(seen).toEqual(["second: boom", "first: boom"]);
  });
});

describe("audit: generators that translate or swallow an error", () => {
  it("hand a translated error to the generators entered before them; the client gets the last one thrown", async () => {
    const seen: string[] = [];
    const outer = dependency({
      async *resolve() {
        try {
          yield "outer";
        } catch (error) {
          seen.push(`outer saw ${(error as HttpError).status ?? "no status"}: ${(error as Error).message}`);
          throw new HttpError(503, "Try again later");
        }
      },
    });
    const inner = dependency({
      *resolve() {
        try {
          yield "inner";
        } catch (error) {
          seen.push(`inner saw: ${(error as Error).message}`);
          throw new HttpError(409, "Already taken");
        }
      },
    });
    const app = createApp({
      routes: [
        path("/", {
          endpoint: endpoint({
            params: { a: p.Depends(outer), b: p.Depends(inner) },
            returns: JsonResponse,
            handler: () => {
              throw new UniqueViolation("duplicate key");
            },
          }),
        }),
      ],
    });
    const response = await testClient(app).get("/");
    expect([response.status, response.json(), seen]).toEqual([
      503,
      { detail: "Try again later" },
      ["inner saw: duplicate key", "outer saw 409: Already taken"],
    ]);
  });

  it("let the original error go on when one catches it and throws nothing", async () => {
    const seen: string[] = [];
    const outer = dependency({
      *resolve() {
        try {
          yield "outer";
        } catch (error) {
          seen.push(`outer saw: ${(error as Error).message}`);
          throw error;
        }
      },
    });
    const swallowing = dependency({
      *resolve() {
        try {
          yield "swallowing";
        } catch (error) {
          seen.push(`swallowed: ${(error as Error).message}`);
        }
      },
    });
    const app = createApp({
      routes: [
        path("/", {
          endpoint: endpoint({
            params: { a: p.Depends(outer), b: p.Depends(swallowing) },
            returns: JsonResponse,
            handler: () => {
              throw new HttpError(404, "No such note");
            },
          }),
        }),
      ],
    });
    const response = await testClient(app).get("/");
    expect([response.status, response.json(), seen]).toEqual([
      404,
      { detail: "No such note" },
      ["swallowed: No such note", "outer saw: No such note"],
    ]);
  });
});

describe("audit: request-scoped clean-ups count as work after the answer", () => {
  /** An app whose `/slow` uses a session whose clean-up waits for `mayCommit` before it commits. */
  function slowCleanUpApp(events: string[], mayCommit: Promise<void>) {
    const session = dependency({
      async *resolve() {
        yield "session";
        await mayCommit;
        events.push("committed");
      },
    });
    return createApp({
      onClose: () => {
        events.push("onClose");
      },
      routes: [
        path("/slow", {
          endpoint: endpoint({
            params: { db: p.Depends(session) },
            returns: JsonResponse,
            handler: (_request, { db }) => new JsonResponse({ db }),
          }),
        }),
      ],
    });
  }

  it("app.close() waits for a clean-up still running, before onClose", async () => {
    const events: string[] = [];
    let commit!: () => void;
    const app = slowCleanUpApp(
      events,
      new Promise<void>((resolve) => {
        commit = resolve;
      }),
    );
    const server = await startServer(app);
    const response = await server.fetch("/slow");
    expect([response.status, await response.json()]).toEqual([200, { db: "session" }]);
    let closed = false;
    const closing = server.close().then(() => {
      closed = true;
    });
    // close() cannot end while the clean-up waits; give it every chance to (a macrotask).
    await new Promise((resolve) => setImmediate(resolve));
    expect([closed, events]).toEqual([false, []]);
    commit();
    await closing;
    expect(events).toEqual(["committed", "onClose"]);
  });

  it("the test client returns once the clean-up is done", async () => {
    const events: string[] = [];
    const app = slowCleanUpApp(events, new Promise<void>((resolve) => setTimeout(resolve, 50)));
    const response = await testClient(app).get("/slow");
    expect([response.status, response.json(), events]).toEqual([200, { db: "session" }, ["committed"]]);
  });
});
