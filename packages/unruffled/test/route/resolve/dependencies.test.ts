import { createApp, type ErrorLogger, exceptionHandler, HttpError, ValueError } from "unruffled";
import { type HttpRequest, JsonResponse } from "unruffled/http";
import type { OpenApiDocument } from "unruffled/openapi";
import { dependency, endpoint, p, path } from "unruffled/route";
import { httpBearer } from "unruffled/security";
import { startServer, testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DOCUMENTED_401 } from "../../support/documented-401.ts";

const paging = dependency({
  params: {
    page: p.Query(z.int(), { default: 1, ge: 1, description: "Page number" }),
    size: p.Query(z.int(), { default: 10, ge: 1, le: 100 }),
  },
  resolve: (_request, { page, size }) => ({ offset: (page - 1) * size, limit: size }),
});

const listItems = endpoint({
  params: { paging: p.Depends(paging), search: p.Query(z.string().optional()) },
  returns: JsonResponse,
  handler: (_request, { paging, search }) => new JsonResponse({ paging, search }),
});

function errorLog(): ErrorLogger & { records: { details: Record<string, unknown>; message: string }[] } {
  const records: { details: Record<string, unknown>; message: string }[] = [];
  return { records, error: (details, message) => records.push({ details, message }) };
}

describe("a dependency's parameters", () => {
  const app = createApp({ routes: [path("/items", { endpoint: listItems })] });

  it("are read, coerced and validated, and the handler gets the dependency's value", async () => {
    const response = await testClient(app).get("/items?page=3&size=20&search=ann");
    expect([response.status, response.json()]).toEqual([
      200,
      { paging: { offset: 40, limit: 20 }, search: "ann" },
    ]);
  });

  it("fail in the same single 422 as the endpoint's own, with the same loc", async () => {
    const response = await testClient(app).get("/items?page=0&size=500&search=a&search=b");
    expect(response.status).toBe(422);
    expect(response.json()).toEqual({
      detail: [
        { loc: ["query", "page"], msg: "Too small: expected number to be >=1", type: "too_small", input: 0 },
        { loc: ["query", "size"], msg: "Too big: expected number to be <=100", type: "too_big", input: 500 },
      ],
    });
  });

  it("are documented as the operation's own, where the dependency is declared", () => {
    const operation = app.openapi().paths["/items"]!.get!;
    expect(operation.parameters).toEqual([
      {
        name: "page",
        in: "query",
        required: false,
        description: "Page number",
        schema: {
          type: "integer",
          minimum: 1,
          maximum: 9007199254740991,
          default: 1,
          description: "Page number",
        },
      },
      {
        name: "size",
        in: "query",
        required: false,
        schema: { type: "integer", minimum: 1, maximum: 100, default: 10 },
      },
      { name: "search", in: "query", required: false, schema: { type: "string" } },
    ]);
    expect(Object.keys(operation.responses)).toEqual(["200", "422"]);
  });
});

describe("nested dependencies", () => {
  it("resolve each after those they use, to any depth", async () => {
    const tenant = dependency({
      params: { tenant: p.Header(z.string()) },
      resolve: (_request, { tenant }) => ({ id: tenant }),
    });
    const user = dependency({
      params: { tenant: p.Depends(tenant), user: p.Query(z.string()) },
      resolve: (_request, { tenant, user }) => `${tenant.id}/${user}`,
    });
    const audit = dependency({
      params: { user: p.Depends(user) },
      resolve: async (_request, { user }) => ({ by: user }),
    });
    const app = createApp({
      routes: [
        path("/whoami", {
          endpoint: endpoint({
            params: { audit: p.Depends(audit) },
            returns: JsonResponse,
            handler: (_request, { audit }) => new JsonResponse(audit),
          }),
        }),
      ],
    });
    const response = await testClient(app).get("/whoami?user=ann", { headers: { tenant: "acme" } });
    expect([response.status, response.json()]).toEqual([200, { by: "acme/ann" }]);
    const missing = await testClient(app).get("/whoami");
    expect(missing.json()).toEqual({
      detail: [
        { loc: ["query", "user"], msg: "Field required", type: "missing", input: null },
        { loc: ["header", "tenant"], msg: "Field required", type: "missing", input: null },
      ],
    });
  });
});

describe("one request resolves each dependency once", () => {
  it("however many parameters use it; cache: false resolves it at every use", async () => {
    let cached = 0;
    let fresh = 0;
    const counted = dependency({ resolve: () => ++cached });
    const uncached = dependency({ cache: false, resolve: () => ++fresh });
    const both = dependency({
      params: { a: p.Depends(counted), b: p.Depends(uncached) },
      resolve: (_request, values) => values,
    });
    const app = createApp({
      routes: [
        path("/", {
          endpoint: endpoint({
            params: {
              first: p.Depends(counted),
              second: p.Depends(counted),
              nested: p.Depends(both),
              once: p.Depends(uncached),
              again: p.Depends(uncached),
            },
            returns: JsonResponse,
            handler: (_request, values) => new JsonResponse(values),
          }),
        }),
      ],
    });
    const response = await testClient(app).get("/");
    expect(response.json()).toEqual({ first: 1, second: 1, nested: { a: 1, b: 1 }, once: 2, again: 3 });
    expect([cached, fresh]).toEqual([1, 3]);
  });
});

describe("generator dependencies", () => {
  class SeatTaken extends Error {}

  /**
   * An app whose transaction logs what it sees, and ends its clean-up (commit, or rollback of the
   * error thrown in) only once `cleanUpMayEnd` resolves; `/ok` answers, `/taken` throws SeatTaken.
   */
  function transactionApp(log: string[], cleanUpMayEnd: Promise<void>) {
    const transaction = dependency({
      async *resolve() {
        log.push("begin");
        try {
          yield { id: 7 };
          await cleanUpMayEnd;
          log.push("commit");
        } catch (error) {
          log.push(`thrown in: ${(error as Error).message}`);
          await cleanUpMayEnd;
          log.push("rolled back");
          throw error;
        }
      },
    });
    const booking = (fail: boolean) =>
      endpoint({
        params: { tx: p.Depends(transaction) },
        returns: JsonResponse,
        handler: (_request, { tx }) => {
          log.push(`handler with ${tx.id}`);
          if (fail) throw new SeatTaken("seat taken");
          return new JsonResponse({ tx: tx.id });
        },
      });
    return createApp({
      logger: errorLog(),
      exceptionHandlers: [
        exceptionHandler(SeatTaken, (error) => {
          log.push("error answer made");
          return new JsonResponse({ detail: error.message }, { status: 409 });
        }),
      ],
      routes: [path("/ok", { endpoint: booking(false) }), path("/taken", { endpoint: booking(true) })],
    });
  }

  /** Fetches `at` from a real server, logs that the client has the answer, then lets the clean-up end. */
  async function fetchThenEndCleanUp(log: string[], at: string): Promise<[number, unknown]> {
    let release!: () => void;
    const app = transactionApp(
      log,
      new Promise<void>((resolve) => {
        release = resolve;
      }),
    );
    const server = await startServer(app);
    try {
      const response = await server.fetch(at);
      const answer: [number, unknown] = [response.status, await response.json()];
      log.push("client has the answer");
      release();
      await app.settled();
      return answer;
    } finally {
      await server.close();
    }
  }

  it("run their code after yield once the answer is written, which does not wait for it", async () => {
    const log: string[] = [];
    expect(await fetchThenEndCleanUp(log, "/ok")).toEqual([200, { tx: 7 }]);
    expect(log).toEqual(["begin", "handler with 7", "client has the answer", "commit"]);
  });

  it("get the handler's error thrown in at the yield before the error answer is made, which waits for their rollback", async () => {
    const log: string[] = [];
    const app = transactionApp(log, Promise.resolve());
    const server = await startServer(app);
    try {
      const response = await server.fetch("/taken");
      expect([response.status, await response.json()]).toEqual([409, { detail: "seat taken" }]);
      log.push("client has the answer");
    } finally {
      await server.close();
    }
    expect(log).toEqual([
      "begin",
      "handler with 7",
      "thrown in: seat taken",
      "rolled back",
      "error answer made",
      "client has the answer",
    ]);
  });

  it("close the last entered first, sync and async alike", async () => {
    const log: string[] = [];
    const outer = dependency({
      *resolve() {
        log.push("enter outer");
        yield "outer";
        log.push("exit outer");
      },
    });
    const inner = dependency({
      params: { outer: p.Depends(outer) },
      async *resolve(_request, { outer }) {
        log.push(`enter inner (${outer})`);
        yield "inner";
        log.push("exit inner");
      },
    });
    const app = createApp({
      routes: [
        path("/", {
          endpoint: endpoint({
            params: { inner: p.Depends(inner) },
            returns: JsonResponse,
            handler: (_request, { inner }) => new JsonResponse({ inner }),
          }),
        }),
      ],
    });
    expect((await testClient(app).get("/")).json()).toEqual({ inner: "inner" });
    expect(log).toEqual(["enter outer", "enter inner (outer)", "exit inner", "exit outer"]);
  });

  it("log what their clean-up throws, and never send it", async () => {
    const log = errorLog();
    const leaky = dependency({
      *resolve() {
        yield 1;
        throw new Error("connection already closed");
      },
    });
    const app = createApp({
      logger: log,
      routes: [
        path("/", {
          endpoint: endpoint({
            params: { leaky: p.Depends(leaky) },
            returns: JsonResponse,
            handler: () => new JsonResponse({ ok: true }),
          }),
        }),
      ],
    });
    const response = await testClient(app).get("/", { headers: { "x-request-id": "r-1" } });
    expect([response.status, response.json()]).toEqual([200, { ok: true }]);
    expect(
      log.records.map(({ details, message }) => [details.reqId, (details.err as Error).message, message]),
    ).toEqual([
      [
        "r-1",
        'The clean-up of dependency "leaky" failed: connection already closed',
        "A task queued with afterResponse() failed",
      ],
    ]);
  });

  it("that return without yielding are a 500 naming the dependency in the log", async () => {
    const log = errorLog();
    const broken = dependency({
      // biome-ignore lint/correctness/useYield: the rule under test is a generator that never yields
      *resolve() {
        return;
      },
    });
    const app = createApp({
      logger: log,
      routes: [
        path("/", {
          endpoint: endpoint({
            params: { broken: p.Depends(broken) },
            returns: JsonResponse,
            handler: () => new JsonResponse({ ok: true }),
          }),
        }),
      ],
    });
    expect((await testClient(app).get("/")).status).toBe(500);
    expect((log.records[0]!.details.err as Error).message).toBe(
      'dependency "broken" returned without yielding its value; a generator dependency yields once.',
    );
  });
});

describe("a dependency that throws", () => {
  it("reaches the exception handlers like a handler's error", async () => {
    class NoTenant extends Error {}
    const tenant = dependency({
      resolve: () => {
        throw new NoTenant("no tenant");
      },
    });
    const app = createApp({
      exceptionHandlers: [
        exceptionHandler(NoTenant, (error) => new JsonResponse({ refused: error.message }, { status: 400 })),
      ],
      routes: [
        path("/", {
          endpoint: endpoint({
            params: { tenant: p.Depends(tenant) },
            returns: JsonResponse,
            handler: () => new JsonResponse({ ok: true }),
          }),
        }),
      ],
    });
    const response = await testClient(app).get("/");
    expect([response.status, response.json()]).toEqual([400, { refused: "no tenant" }]);
  });

  it("rejecting reaches them too", async () => {
    const slow = dependency({ resolve: async () => Promise.reject(new RangeError("too slow")) });
    const app = createApp({
      logger: errorLog(),
      exceptionHandlers: [
        exceptionHandler(RangeError, () => new JsonResponse({ late: true }, { status: 503 })),
      ],
      routes: [
        path("/", {
          endpoint: endpoint({
            params: { slow: p.Depends(slow) },
            returns: JsonResponse,
            handler: () => new JsonResponse({ ok: true }),
          }),
        }),
      ],
    });
    expect((await testClient(app).get("/")).status).toBe(503);
  });
});

describe("route, group and app dependencies", () => {
  it("run for every route below them, their values reaching nobody, their parameters documented", async () => {
    const calls: string[] = [];
    const requireTenant = dependency({
      params: { tenant: p.Header(z.string(), { alias: "X-Tenant" }) },
      resolve: (_request, { tenant }) => {
        calls.push(`tenant ${tenant}`);
      },
    });
    const countRequest = dependency({ resolve: () => void calls.push("counted") });
    const hello = endpoint({
      returns: JsonResponse,
      handler: (request: HttpRequest) => new JsonResponse({ path: request.path }),
    });
    const app = createApp({
      dependencies: [countRequest],
      routes: [
        path("/admin", {
          dependencies: [p.Depends(requireTenant)],
          routes: [path("/a", { endpoint: hello }), path("/b", { endpoint: hello })],
        }),
        path("/open", { endpoint: hello }),
      ],
    });
    const client = testClient(app);
    expect((await client.get("/admin/a", { headers: { "x-tenant": "acme" } })).json()).toEqual({
      path: "/admin/a",
    });
    expect((await client.get("/open")).json()).toEqual({ path: "/open" });
    const refused = await client.get("/admin/b");
    expect([refused.status, refused.json()]).toEqual([
      422,
      { detail: [{ loc: ["header", "X-Tenant"], msg: "Field required", type: "missing", input: null }] },
    ]);
    expect(calls).toEqual(["counted", "tenant acme", "counted"]);
    const document = app.openapi();
    expect(document.paths["/admin/b"]!.get!.parameters).toEqual([
      { name: "X-Tenant", in: "header", required: true, schema: { type: "string" } },
    ]);
    expect(document.paths["/open"]!.get!.parameters).toBeUndefined();
  });
});

describe("app dependencies with parameters and security", () => {
  const requireTenant = dependency({
    params: { tenant: p.Header(z.string(), { alias: "X-Tenant" }) },
    resolve: () => {},
  });
  const staff = httpBearer({ verify: (token) => (token === "staff-token" ? { name: "ann" } : null) });
  const hello = endpoint({
    returns: JsonResponse,
    handler: (request: HttpRequest) => new JsonResponse({ path: request.path }),
  });
  const app = createApp({
    dependencies: [requireTenant, p.Security(staff)],
    routes: [path("/a", { endpoint: hello }), path("/g", { routes: [path("/b", { endpoint: hello })] })],
  });
  const client = testClient(app);

  it("give every operation the header parameter, the security requirement and the 401", () => {
    const paths = app.openapi().paths;
    expect(Object.keys(paths)).toEqual(["/a", "/g/b"]);
    for (const operation of [paths["/a"]!.get!, paths["/g/b"]!.get!]) {
      expect(operation.parameters).toEqual([
        { name: "X-Tenant", in: "header", required: true, schema: { type: "string" } },
      ]);
      expect(operation.security).toEqual([{ bearerAuth: [] }]);
      expect(operation.responses["401"]).toEqual(DOCUMENTED_401);
    }
  });

  it("answer 200 with the header and credentials, wherever the route is", async () => {
    const headers = { "x-tenant": "acme", authorization: "Bearer staff-token" };
    const response = await client.get("/g/b", { headers });
    expect([response.status, response.json()]).toEqual([200, { path: "/g/b" }]);
  });

  it("answer 422 without the header", async () => {
    const response = await client.get("/g/b", { headers: { authorization: "Bearer staff-token" } });
    expect([response.status, response.json()]).toEqual([
      422,
      { detail: [{ loc: ["header", "X-Tenant"], msg: "Field required", type: "missing", input: null }] },
    ]);
  });

  it("answer 401 with the challenge without credentials", async () => {
    const response = await client.get("/a", { headers: { "x-tenant": "acme" } });
    expect([response.status, response.headers.get("www-authenticate"), response.json()]).toEqual([
      401,
      "Bearer",
      { detail: "Not authenticated: send the header Authorization: Bearer <token>" },
    ]);
  });
});

describe("overrides", () => {
  const realDb = dependency({ resolve: (): { name: string } => ({ name: "production" }) });
  const fakeDb = dependency({ resolve: () => ({ name: "memory" }) });
  const which = endpoint({
    params: { db: p.Depends(realDb) },
    returns: JsonResponse,
    handler: (_request, { db }) => new JsonResponse({ db: db.name }),
  });
  const app = createApp({ routes: [path("/db", { endpoint: which })] });

  it("replace a dependency wherever it is declared, on the test client", async () => {
    expect((await testClient(app).get("/db")).json()).toEqual({ db: "production" });
    expect((await testClient(app, { overrides: [[realDb, fakeDb]] }).get("/db")).json()).toEqual({
      db: "memory",
    });
  });

  it("and on a server started for tests", async () => {
    const server = await startServer(app, { overrides: [[realDb, fakeDb]] });
    try {
      expect(await (await server.fetch("/db")).json()).toEqual({ db: "memory" });
    } finally {
      await server.close();
    }
  });

  it("analyse the replacement's own parameters", async () => {
    const pickDb = dependency({
      params: { db: p.Query(z.enum(["a", "b"])) },
      resolve: (_request, { db }) => ({ name: db }),
    });
    const client = testClient(app, { overrides: [[realDb, pickDb]] });
    expect((await client.get("/db?db=b")).json()).toEqual({ db: "b" });
    expect((await client.get("/db?db=c")).status).toBe(422);
  });

  it("replace a security scheme: the handler gets the fake principal, its scopes unchecked, and the document keeps the requirement", async () => {
    const bearer = httpBearer({ verify: (): { name: string; scope: string } | null => null });
    const secured = createApp({
      settings: { OPENAPI: { info: { title: "Secured", version: "1.0.0" }, allow_public: true } },
      routes: [
        path("/me", {
          endpoint: endpoint({
            params: { user: p.Security(bearer, { scopes: ["notes:write"] }) },
            returns: JsonResponse,
            handler: (_request, { user }) => new JsonResponse({ user }),
          }),
        }),
      ],
    });
    const fakeUser = dependency({ resolve: () => ({ name: "Test", scope: "notes:read" }) });
    const server = await startServer(secured, { overrides: [[bearer, fakeUser]] });
    try {
      const response = await server.fetch("/me");
      expect([response.status, await response.json()]).toEqual([
        200,
        { user: { name: "Test", scope: "notes:read" } },
      ]);
      const document = (await (await server.fetch("/openapi/openapi.json")).json()) as OpenApiDocument;
      const operation = document.paths["/me"]!.get!;
      expect(operation.security).toEqual([{ bearerAuth: ["notes:write"] }]);
      expect(Object.keys(operation.responses)).toEqual(["200", "401", "403"]);
    } finally {
      await server.close();
    }
  });

  it("refuse a replacement that is not a dependency", () => {
    expect(() => app.withOverrides([[realDb, (() => ({ name: "x" })) as never]])).toThrow(
      "An override's replacement is a dependency made by dependency({ resolve }).",
    );
  });
});

describe("definition errors at start-up", () => {
  const build =
    (params: Record<string, unknown>, dependencies: unknown[] = []) =>
    () =>
      createApp({
        dependencies: dependencies as never,
        routes: [
          path("/x", {
            name: "x",
            endpoint: endpoint({
              params: params as never,
              returns: JsonResponse,
              handler: () => new JsonResponse({}),
            }),
          }),
        ],
      });

  it("a dependency that depends on itself directly, or through a chain the app's dependencies start", () => {
    const selfish: Record<string, never> = {};
    const self = dependency({ name: "self", params: selfish, resolve: () => 1 });
    (self.params as Record<string, unknown>).again = p.Depends(self);
    const cyclic: Record<string, never> = {};
    const first = dependency({ name: "first", params: cyclic, resolve: () => 1 });
    const second = dependency({ name: "second", params: { first: p.Depends(first) }, resolve: () => 2 });
    (first.params as Record<string, unknown>).second = p.Depends(second);
    expect(build({ value: p.Depends(self) })).toThrow(
      new ValueError(
        'endpoint "x" (GET /x): dependency "self" depends on itself (dependency "self" → dependency "self"); break the cycle.',
      ),
    );
    expect(build({}, [first])).toThrow(
      new ValueError(
        'endpoint "x" (GET /x): dependency "first" depends on itself (dependency "first" → dependency "second" → dependency "first"); break the cycle.',
      ),
    );
  });

  it("a dependency cycle", () => {
    const cyclic: Record<string, never> = {};
    const first = dependency({ name: "first", params: cyclic, resolve: () => 1 });
    const second = dependency({ name: "second", params: { first: p.Depends(first) }, resolve: () => 2 });
    (first.params as Record<string, unknown>).second = p.Depends(second);
    expect(build({ value: p.Depends(first) })).toThrow(
      new ValueError(
        'endpoint "x" (GET /x): dependency "first" depends on itself (dependency "first" → dependency "second" → dependency "first"); break the cycle.',
      ),
    );
  });

  it("two parameters that read one wire name of one source with different schemas", () => {
    const byId = dependency({ params: { id: p.Query(z.int()) }, resolve: (_request, { id }) => id });
    expect(build({ item: p.Depends(byId), id: p.Query(z.string()) })).toThrow(
      new ValueError(
        'endpoint "x" (GET /x): parameters "id" of dependency "item" and "id" both read the query name "id", declared differently. Declare it once, in a dependency both use, or give both the same declaration.',
      ),
    );
  });

  it("but one declaration shared by two dependencies is read once", async () => {
    const id = p.Query(z.int(), { ge: 1 });
    const first = dependency({ params: { id }, resolve: (_request, values) => values.id });
    const second = dependency({ params: { id }, resolve: (_request, values) => values.id * 10 });
    const app = build({ a: p.Depends(first), b: p.Depends(second) })();
    expect(app.openapi().paths["/x"]!.get!.parameters).toHaveLength(1);
    expect((await testClient(app).get("/x?id=0")).json()).toEqual({
      detail: [
        { loc: ["query", "id"], msg: "Too small: expected number to be >=1", type: "too_small", input: 0 },
      ],
    });
  });

  it("a bare default in a dependency, naming endpoint, dependency and parameter", () => {
    const broken = dependency({ name: "broken", params: { page: 1 } as never, resolve: () => 1 });
    expect(build({ value: p.Depends(broken) })).toThrow(
      new ValueError(
        'endpoint "x" (GET /x), dependency "broken", parameter "page" is a bare default (1), not a schema. Declare the type with a marker and give the default there: page: p.Query(z.int(), { default: 1 }).',
      ),
    );
  });

  it("Json and Form mixed across the endpoint and its dependencies", () => {
    const form = dependency({
      name: "notes",
      params: { note: p.Form(z.string()) },
      resolve: (_request, { note }) => note,
    });
    expect(build({ note: p.Depends(form), body: p.Json(z.object({ a: z.int() })) })).toThrow(
      new ValueError(
        'endpoint "x" (GET /x): parameters "body" (p.Json) and "note" of dependency "notes" (p.Form) read the body in two formats. An endpoint reads a JSON body or a form, not both: use p.Json for every body parameter, or p.Form/p.File for all of them.',
      ),
    );
  });

  it("p.Depends of something that is not a dependency", () => {
    expect(build({ value: p.Depends({ kind: "dependency" } as never) })).toThrow(ValueError);
    expect(build({}, [{ not: "a dependency" }])).toThrow(
      new ValueError(
        'endpoint "x" (GET /x), route dependency 1 is an object (not); give a dependency(...), p.Depends(...) or p.Security(...).',
      ),
    );
  });

  it("dependency() without a resolve function", () => {
    expect(() => dependency({ name: "nothing" } as never)).toThrow(
      new TypeError('dependency("nothing") needs a resolve function.'),
    );
  });
});

describe("the request path", () => {
  it("stays synchronous while every dependency answers at once", () => {
    const app = createApp({ routes: [path("/items", { endpoint: listItems })] });
    const request = app.createRequest({
      method: "GET",
      url: "/items?page=2",
      headers: {},
      socket: undefined,
      body: {
        length: 0,
        abandoned: false,
        read: async () => Buffer.alloc(0),
        readable: () => undefined as never,
        abandon() {},
      },
    });
    const response = app.handle(request);
    expect(response).not.toBeInstanceOf(Promise);
    expect((response as JsonResponse).data).toEqual({ paging: { offset: 10, limit: 10 }, search: undefined });
  });
});

describe("audit: dependencies.md promises", () => {
  it("one declaration repeated with the same schema object and the same options is read once", async () => {
    const Id = z.int();
    const first = dependency({
      params: { id: p.Query(Id, { ge: 1 }) },
      resolve: (_request, values) => values.id,
    });
    const second = dependency({
      params: { id: p.Query(Id, { ge: 1 }) },
      resolve: (_request, values) => values.id * 10,
    });
    const app = createApp({
      routes: [
        path("/x", {
          name: "x",
          endpoint: endpoint({
            params: { a: p.Depends(first), b: p.Depends(second) },
            returns: JsonResponse,
            handler: (_request, { a, b }) => new JsonResponse({ a, b }),
          }),
        }),
      ],
    });
    expect(app.openapi().paths["/x"]!.get!.parameters).toEqual([
      {
        name: "id",
        in: "query",
        required: true,
        schema: { type: "integer", minimum: 1, maximum: 9007199254740991 },
      },
    ]);
    const client = testClient(app);
    expect((await client.get("/x?id=2")).json()).toEqual({ a: 2, b: 20 });
    expect((await client.get("/x?id=0")).json()).toEqual({
      detail: [
        { loc: ["query", "id"], msg: "Too small: expected number to be >=1", type: "too_small", input: 0 },
      ],
    });
  });

  it("runs the app's dependencies, then the groups' from the outside in, then the route's, then the endpoint's", async () => {
    const calls: string[] = [];
    const named = (name: string) => dependency({ name, resolve: () => void calls.push(name) });
    const hello = endpoint({
      params: { own: p.Depends(named("endpoint")) },
      returns: JsonResponse,
      handler: () => {
        calls.push("handler");
        return new JsonResponse({ ok: true });
      },
    });
    const app = createApp({
      dependencies: [named("app")],
      routes: [
        path("/outer", {
          dependencies: [named("outer group")],
          routes: [
            path("/inner", {
              dependencies: [named("inner group")],
              routes: [path("/hello", { endpoint: hello, dependencies: [named("route")] })],
            }),
          ],
        }),
      ],
    });
    const response = await testClient(app).get("/outer/inner/hello");
    expect([response.status, calls]).toEqual([
      200,
      ["app", "outer group", "inner group", "route", "endpoint", "handler"],
    ]);
  });
});

describe("audit: once per request, across the app's, a group's and the endpoint's", () => {
  it("resolves a dependency once when a group runs it and the endpoint asks for it too", async () => {
    let resolved = 0;
    const currentUser = dependency({
      params: { user: p.Header(z.string(), { alias: "X-User" }) },
      resolve: (_request, { user }) => ({ name: user, call: ++resolved }),
    });
    const me = endpoint({
      params: { user: p.Depends(currentUser) },
      returns: JsonResponse,
      handler: (_request, { user }) => new JsonResponse(user),
    });
    const app = createApp({
      dependencies: [currentUser],
      routes: [path("/team", { dependencies: [currentUser], routes: [path("/me", { endpoint: me })] })],
    });
    const response = await testClient(app).get("/team/me", { headers: { "x-user": "ann" } });
    expect([response.status, response.json(), resolved]).toEqual([200, { name: "ann", call: 1 }, 1]);
    expect(app.openapi().paths["/team/me"]!.get!.parameters).toEqual([
      { name: "X-User", in: "header", required: true, schema: { type: "string" } },
    ]);
  });
});

describe("audit: docs/dependencies.md, errors and overrides", () => {
  it("an HttpError a dependency throws becomes its status; anything else a 500, without custom handlers", async () => {
    const refusing = dependency({
      resolve: () => {
        throw new HttpError(409, "tenant suspended", { "retry-after": "60" });
      },
    });
    const broken = dependency({
      resolve: async () => {
        throw new TypeError("db.query is not a function");
      },
    });
    const answer = (dependsOn: typeof refusing) =>
      endpoint({
        params: { _: p.Depends(dependsOn) },
        returns: JsonResponse,
        handler: () => new JsonResponse({ ok: true }),
      });
    const logger = errorLog();
    const client = testClient(
      createApp({
        logger,
        routes: [
          path("/refusing", { endpoint: answer(refusing) }),
          path("/broken", { endpoint: answer(broken) }),
        ],
      }),
    );
    const refused = await client.get("/refusing");
    expect([refused.status, refused.headers.get("retry-after"), refused.json()]).toEqual([
      409,
      "60",
      { detail: "tenant suspended" },
    ]);
    const failed = await client.get("/broken");
    expect([failed.status, failed.json()]).toEqual([500, { detail: "Internal Server Error" }]);
    expect((logger.records[0]!.details.err as Error).message).toBe("db.query is not a function");
  });

  it("an override replaces a dependency that a group runs, or one nested in another, and documents the replacement's parameters", async () => {
    const realTenant = dependency({
      params: { tenant: p.Header(z.string(), { alias: "X-Tenant" }) },
      resolve: (_request, { tenant }) => tenant,
    });
    const realUser = dependency({ resolve: (): { name: string } => ({ name: "production" }) });
    const seenUser = dependency({
      params: { user: p.Depends(realUser) },
      resolve: (_request, { user }) => user.name,
    });
    const fakeTenant = dependency({ resolve: () => "test" });
    const fakeUser = dependency({
      params: { as: p.Query(z.string(), { default: "tester" }) },
      resolve: (_request, { as }) => ({ name: as }),
    });
    const whoami = endpoint({
      params: { user: p.Depends(seenUser) },
      returns: JsonResponse,
      handler: (_request, { user }) => new JsonResponse({ user }),
    });
    const app = createApp({
      routes: [path("/api", { dependencies: [realTenant], routes: [path("/whoami", { endpoint: whoami })] })],
    });
    expect((await testClient(app).get("/api/whoami")).status).toBe(422);
    const overridden = app.withOverrides([
      [realTenant, fakeTenant],
      [realUser, fakeUser],
    ]);
    const response = await overridden.fetch(new Request("http://localhost/api/whoami?as=ann"));
    expect([response.status, await response.json()]).toEqual([200, { user: "ann" }]);
    expect(overridden.openapi().paths["/api/whoami"]!.get!.parameters).toEqual([
      { name: "as", in: "query", required: false, schema: { type: "string", default: "tester" } },
    ]);
    // The original app is unchanged.
    expect(app.openapi().paths["/api/whoami"]!.get!.parameters).toEqual([
      { name: "X-Tenant", in: "header", required: true, schema: { type: "string" } },
    ]);
  });
});

describe("audit: docs/dependencies.md, params takes the same markers as an endpoint", () => {
  it("a dependency's path, cookie, form and file parameters are read, documented, and fail in the endpoint's one 422", async () => {
    const upload = dependency({
      params: {
        id: p.Path(z.int()),
        sid: p.Cookie(z.string().optional()),
        note: p.Form(z.string()),
        doc: p.File(),
      },
      resolve: async (_request, { id, sid, note, doc }) => ({ id, sid, note, doc: await doc.text() }),
    });
    const attach = endpoint({
      params: { upload: p.Depends(upload), title: p.Form(z.string()) },
      returns: JsonResponse,
      handler: (_request, { upload, title }) => new JsonResponse({ upload, title }),
    });
    const app = createApp({ routes: [path("/items/{id}", { endpoint: attach, methods: ["POST"] })] });
    const operation = app.openapi().paths["/items/{id}"]!.post!;
    expect(operation.parameters).toEqual([
      {
        name: "id",
        in: "path",
        required: true,
        schema: { type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 },
      },
      { name: "sid", in: "cookie", required: false, schema: { type: "string" } },
    ]);
    expect(operation.requestBody).toEqual({
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            properties: {
              note: { type: "string" },
              doc: { type: "string", format: "binary" },
              title: { type: "string" },
            },
            required: ["note", "doc", "title"],
          },
        },
      },
    });
    const server = await startServer(app);
    try {
      const form = new FormData();
      form.append("note", "n");
      form.append("title", "t");
      form.append("doc", new Blob(["hello"]), "a.txt");
      const sent = await server.fetch("/items/7", {
        method: "POST",
        body: form,
        headers: { cookie: "sid=abc" },
      });
      expect([sent.status, await sent.json()]).toEqual([
        200,
        { upload: { id: 7, sid: "abc", note: "n", doc: "hello" }, title: "t" },
      ]);
      const partial = new FormData();
      partial.append("title", "t");
      const refused = await server.fetch("/items/x", { method: "POST", body: partial });
      expect([refused.status, await refused.json()]).toEqual([
        422,
        {
          detail: [
            {
              loc: ["path", "id"],
              msg: "Invalid input: expected number, received string",
              type: "invalid_type",
              input: "x",
            },
            { loc: ["body", "note"], msg: "Field required", type: "missing", input: null },
            { loc: ["body", "doc"], msg: "Field required", type: "missing", input: null },
          ],
        },
      ]);
    } finally {
      await server.close();
    }
  });
});

describe("audit: docs/dependencies.md, once per request for generators", () => {
  it("a generator used twice is entered and closed once; with cache: false each use is, closed in reverse", async () => {
    for (const [cache, answer, steps] of [
      [true, { a: 1, b: 1 }, ["open 1", "close 1"]],
      [false, { a: 1, b: 2 }, ["open 1", "open 2", "close 2", "close 1"]],
    ] as const) {
      const log: string[] = [];
      let opened = 0;
      const session = dependency({
        cache,
        async *resolve() {
          const id = ++opened;
          log.push(`open ${id}`);
          try {
            yield id;
          } finally {
            log.push(`close ${id}`);
          }
        },
      });
      const viaAnother = dependency({
        params: { id: p.Depends(session) },
        resolve: (_request, { id }) => id,
      });
      const both = endpoint({
        params: { a: p.Depends(session), b: p.Depends(viaAnother) },
        returns: JsonResponse,
        handler: (_request, { a, b }) => new JsonResponse({ a, b }),
      });
      const response = await testClient(createApp({ routes: [path("/both", { endpoint: both })] })).get(
        "/both",
      );
      expect([cache, response.json(), log]).toEqual([cache, answer, steps]);
    }
  });
});

describe("a dependency's embedded JSON parameter", () => {
  it("is read from its own key of the body, beside the endpoint's model that spreads over the top level", async () => {
    const audit = dependency({
      params: { meta: p.Json(z.object({ actor: z.string() }), { embed: true }) },
      resolve: (_request, { meta }) => meta.actor,
    });
    const save = endpoint({
      params: { actor: p.Depends(audit), item: p.Json(z.object({ name: z.string() })) },
      returns: JsonResponse,
      handler: (_request, values) => new JsonResponse(values),
    });
    const client = testClient(createApp({ routes: [path("/items", { endpoint: save, methods: ["POST"] })] }));
    const saved = await client.post("/items", { json: { name: "Foo", meta: { actor: "ann" } } });
    expect([saved.status, saved.json()]).toEqual([200, { actor: "ann", item: { name: "Foo" } }]);
    const flat = await client.post("/items", { json: { name: "Foo", actor: "ann" } });
    expect([flat.status, flat.json()]).toEqual([
      422,
      { detail: [{ loc: ["body", "meta"], msg: "Field required", type: "missing", input: null }] },
    ]);
  });
});
