import { createApp, exceptionHandler, HttpError, type Middleware, ValueError } from "unruffled";
import { JsonResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { jsonOf, serve } from "../support/serve.ts";

/** A middleware that notes when the request passes it on the way in and out. */
function tracing(name: string, events: string[]): Middleware {
  const middleware: Middleware = async (request, next) => {
    events.push(`${name} in`);
    const response = await next(request);
    events.push(`${name} out`);
    return response;
  };
  return middleware;
}

function handlerNoting(events: string[]) {
  return endpoint({
    returns: PlainTextResponse,
    handler: () => {
      events.push("endpoint");
      return new PlainTextResponse("done");
    },
  });
}

describe("middleware", () => {
  it("wraps a route outermost first: the app's, then its groups', then its own", async () => {
    const events: string[] = [];
    const server = await serve(
      [
        path("/api", {
          middleware: [tracing("group", events)],
          routes: [
            path("/v1", {
              middleware: [tracing("inner group", events)],
              routes: [
                path("/items", { endpoint: handlerNoting(events), middleware: [tracing("route", events)] }),
              ],
            }),
          ],
        }),
      ],
      { middleware: [tracing("app 1", events), tracing("app 2", events)] },
    );
    const response = await server.fetch("/api/v1/items");
    expect([response.status, await response.text()]).toEqual([200, "done"]);
    expect(events).toEqual([
      "app 1 in",
      "app 2 in",
      "group in",
      "inner group in",
      "route in",
      "endpoint",
      "route out",
      "inner group out",
      "group out",
      "app 2 out",
      "app 1 out",
    ]);
  });

  it("may answer without calling next: the endpoint does not run", async () => {
    const events: string[] = [];
    const requireKey: Middleware = (request, next) =>
      request.headers["x-key"] === "open sesame"
        ? next(request)
        : new JsonResponse({ detail: "Not authenticated" }, { status: 401 });
    const server = await serve([path("/items", { endpoint: handlerNoting(events) })], {
      middleware: [requireKey],
    });
    expect(await jsonOf(server.fetch("/items"))).toEqual({
      status: 401,
      body: { detail: "Not authenticated" },
    });
    expect(events).toEqual([]);
    const allowed = await server.fetch("/items", { headers: { "x-key": "open sesame" } });
    expect([allowed.status, await allowed.text(), events]).toEqual([200, "done", ["endpoint"]]);
  });

  it("may change the response next gives back, or replace it", async () => {
    const stamp: Middleware = async (request, next) => {
      const response = await next(request);
      response.headers["x-served-by"] = "unruffled";
      return response;
    };
    const replace: Middleware = async (request, next) => {
      const response = await next(request);
      return new PlainTextResponse(`was ${response.status}`, { status: 203 });
    };
    const server = await serve([
      path("/stamped", { endpoint: handlerNoting([]), middleware: [stamp] }),
      path("/replaced", { endpoint: handlerNoting([]), middleware: [replace] }),
    ]);
    const stamped = await server.fetch("/stamped");
    expect([stamped.status, stamped.headers.get("x-served-by"), await stamped.text()]).toEqual([
      200,
      "unruffled",
      "done",
    ]);
    const replaced = await server.fetch("/replaced");
    expect([replaced.status, await replaced.text()]).toEqual([203, "was 200"]);
  });

  it("sees the endpoint's errors as the exception handlers' answers", async () => {
    const statuses: number[] = [];
    const noteStatus: Middleware = async (request, next) => {
      const response = await next(request);
      statuses.push(response.status);
      return response;
    };
    const server = await serve(
      [
        path("/items/{id}", {
          endpoint: endpoint({
            params: { id: p.Path(z.int()) },
            returns: PlainTextResponse,
            handler: (_request, { id }) => {
              if (id === 7) throw new HttpError(409, "Taken");
              return new PlainTextResponse(`item ${id}`);
            },
          }),
        }),
      ],
      { middleware: [noteStatus] },
    );
    await server.fetch("/items/1");
    expect(await jsonOf(server.fetch("/items/7"))).toEqual({ status: 409, body: { detail: "Taken" } });
    expect((await server.fetch("/items/x")).status).toBe(422);
    expect(statuses).toEqual([200, 409, 422]);
  });

  it("answers what a middleware throws with the exception handlers, and the middleware outside it see that answer", async () => {
    class Locked extends Error {}
    const seen: string[] = [];
    const outer: Middleware = async (request, next) => {
      const response = await next(request);
      seen.push(`outer saw ${response.status}`);
      return response;
    };
    const throwsAtOnce: Middleware = () => {
      throw new Locked("at once");
    };
    const rejects: Middleware = async () => {
      throw new Locked("later");
    };
    const server = await serve(
      [
        path("/sync", { endpoint: handlerNoting([]), middleware: [throwsAtOnce] }),
        path("/async", { endpoint: handlerNoting([]), middleware: [rejects] }),
      ],
      {
        middleware: [outer],
        exceptionHandlers: [
          exceptionHandler(Locked, (error) => new JsonResponse({ locked: error.message }, { status: 423 })),
        ],
      },
    );
    expect(await jsonOf(server.fetch("/sync"))).toEqual({ status: 423, body: { locked: "at once" } });
    expect(await jsonOf(server.fetch("/async"))).toEqual({ status: 423, body: { locked: "later" } });
    expect(seen).toEqual(["outer saw 423", "outer saw 423"]);
  });

  it("answers 500 for a middleware that returns no response, and logs which one", async () => {
    const logged: { details: Record<string, unknown>; message: string }[] = [];
    const forgetful: Middleware = async function forgetful(request, next) {
      await next(request);
      return undefined as never;
    };
    const server = await serve([path("/items", { endpoint: handlerNoting([]), middleware: [forgetful] })], {
      logger: { error: (details, message) => logged.push({ details, message }) },
    });
    expect(await jsonOf(server.fetch("/items"))).toEqual({
      status: 500,
      body: { detail: "Internal Server Error" },
    });
    expect((logged[0]!.details.err as Error).message).toBe(
      "the middleware forgetful returned undefined, not a response; return a JsonResponse, a PlainTextResponse or another HttpResponse.",
    );
  });

  it("goes on with the request it was given when a middleware calls next() without it", async () => {
    const seen: string[] = [];
    const koaStyle: Middleware = async (_request, next) => {
      const response = await (next as () => ReturnType<typeof next>)();
      response.headers["x-koa"] = "1";
      return response;
    };
    const reading: Middleware = (request, next) => {
      seen.push(request.path);
      return next();
    };
    const server = await serve([
      path("/items", { endpoint: handlerNoting(seen), middleware: [koaStyle, reading] }),
    ]);
    const response = await server.fetch("/items");
    expect([response.status, response.headers.get("x-koa"), await response.text()]).toEqual([
      200,
      "1",
      "done",
    ]);
    expect(seen).toEqual(["/items", "endpoint"]);
  });

  it("answers 500 once, without a second error, when answering an error fails", async () => {
    class Broken extends Error {}
    const hostileError = new Proxy(new Error("hostile"), {
      get(target, key) {
        if (key === "constructor") throw new Error("no class to read");
        return Reflect.get(target, key);
      },
    });
    const failing = (thrown: unknown) =>
      endpoint({
        returns: PlainTextResponse,
        handler: () => {
          throw thrown;
        },
      });
    const server = await serve(
      [
        path("/handler-throws", { endpoint: failing(new Broken("first")) }),
        path("/hostile", { endpoint: failing(hostileError) }),
      ],
      {
        exceptionHandlers: [
          exceptionHandler(Broken, () => {
            throw new Error("the exception handler failed too");
          }),
        ],
        // A logger that fails as well: the 500 still goes out.
        logger: {
          error: () => {
            throw new Error("the logger failed");
          },
        },
      },
    );
    for (const target of ["/handler-throws", "/hostile"]) {
      expect(await jsonOf(server.fetch(target))).toEqual({
        status: 500,
        body: { detail: "Internal Server Error" },
      });
    }
  });

  it("runs the app's middleware around the 404 of an unknown path", async () => {
    const events: string[] = [];
    const server = await serve([path("/items", { endpoint: handlerNoting(events) })], {
      middleware: [tracing("app", events)],
    });
    expect(await jsonOf(server.fetch("/nope"))).toEqual({
      status: 404,
      body: { detail: "Not Found: /nope" },
    });
    expect(events).toEqual(["app in", "app out"]);
  });

  it("runs the middleware every route of a path shares around its 405, and not the others", async () => {
    const events: string[] = [];
    const server = await serve(
      [
        path("/shop", {
          middleware: [tracing("shop", events)],
          routes: [path("/items", { endpoint: handlerNoting([]), middleware: [tracing("read", events)] })],
        }),
        path("/shop/items", {
          endpoint: handlerNoting([]),
          methods: ["POST"],
          middleware: [tracing("write", events)],
        }),
      ],
      { middleware: [tracing("app", events)] },
    );
    const response = await server.fetch("/shop/items", { method: "DELETE" });
    expect([response.status, response.headers.get("allow")]).toEqual([405, "GET, POST, HEAD"]);
    expect(events).toEqual(["app in", "app out"]);
  });

  it("runs the GET route's middleware for HEAD", async () => {
    const events: string[] = [];
    const server = await serve([
      path("/items", { endpoint: handlerNoting([]), middleware: [tracing("route", events)] }),
    ]);
    const response = await server.fetch("/items", { method: "HEAD" });
    expect([response.status, await response.text(), events]).toEqual([200, "", ["route in", "route out"]]);
  });

  it("leaves a route outside the groups that have middleware without any", async () => {
    const events: string[] = [];
    const server = await serve([
      path("/admin", {
        middleware: [tracing("admin", events)],
        routes: [path("/items", { endpoint: handlerNoting([]) })],
      }),
      path("/items", { endpoint: handlerNoting([]) }),
    ]);
    await server.fetch("/items");
    expect(events).toEqual([]);
    await server.fetch("/admin/items");
    expect(events).toEqual(["admin in", "admin out"]);
  });

  it("specialises a middleware for each route once, when the app is built, with its path's methods", async () => {
    const routesSeen: unknown[] = [];
    const perRoute: Middleware = (request, next) => next(request);
    perRoute.forRoute = (route) => {
      routesSeen.push(route);
      const specialised: Middleware = async (request, next) => {
        const response = await next(request);
        response.headers["x-methods"] = route.methods.join(", ");
        return response;
      };
      return specialised;
    };
    const app = createApp({
      middleware: [perRoute],
      routes: [
        path("/items", { endpoint: handlerNoting([]) }),
        path("/items", { endpoint: handlerNoting([]), methods: ["POST"], name: "create" }),
      ],
    });
    const built = [...routesSeen];
    expect(built).toContainEqual({ path: "/items", methods: ["GET", "POST", "HEAD"] });
    expect(built).toContainEqual({ path: undefined, methods: [] });
    const client = testClient(app);
    const response = await client.post("/items");
    expect([response.status, response.headers.get("x-methods")]).toEqual([200, "GET, POST, HEAD"]);
    expect(routesSeen).toEqual(built);
  });

  it("keeps request.afterResponse working: tasks queued by a middleware run after the answer", async () => {
    const ran: string[] = [];
    const audit: Middleware = (request, next) => {
      request.afterResponse(() => {
        ran.push("audit");
      });
      return next(request);
    };
    const app = createApp({
      middleware: [audit],
      routes: [path("/items", { endpoint: handlerNoting(ran) })],
    });
    const response = await testClient(app).get("/items");
    expect([response.status, ran]).toEqual([200, ["endpoint", "audit"]]);
  });

  it("refuses middleware that is not a list of functions when the app is built", () => {
    const hello = handlerNoting([]);
    expect(() => createApp({ routes: [], middleware: {} as never })).toThrow(
      new ValueError(
        "createApp({ middleware }): middleware must be a list of middleware functions such as [cors(...)].",
      ),
    );
    expect(() =>
      createApp({
        routes: [
          path("/api", { routes: [path("/hello", { endpoint: hello })], middleware: ["cors"] as never }),
        ],
      }),
    ).toThrow(
      new ValueError('path("/api"): middleware must be a list of middleware functions such as [cors(...)].'),
    );
  });
});

describe("audit-b: requests no route takes", () => {
  it("runs the middleware every route of a path shares around its 405 and a plain OPTIONS, and the app's too", async () => {
    const events: string[] = [];
    const server = await serve(
      [
        path("/admin", {
          middleware: [tracing("admin", events)],
          routes: [
            path("/items", { endpoint: handlerNoting([]), middleware: [tracing("read", events)] }),
            path("/items", { endpoint: handlerNoting([]), methods: ["POST"], name: "create" }),
          ],
        }),
      ],
      { middleware: [tracing("app", events)] },
    );
    for (const method of ["DELETE", "OPTIONS"]) {
      events.length = 0;
      const response = await server.fetch("/admin/items", { method });
      expect([method, response.status, response.headers.get("allow")]).toEqual([
        method,
        405,
        "GET, POST, HEAD",
      ]);
      expect(events).toEqual(["app in", "admin in", "admin out", "app out"]);
    }
  });
});
