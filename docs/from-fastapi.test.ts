// docs/from-fastapi.md, "Mapping": a FastAPI user writes the unruffled column of a row word for word.
// Each test takes a row (or a few that go together) and checks that what it names does what the row says.
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import {
  compression,
  createApp,
  exceptionHandler,
  HttpError,
  httpsRedirect,
  NotFoundError,
  RequestValidationError,
  trustedHost,
} from "unruffled";
import {
  FileResponse,
  HtmlResponse,
  HttpResponse,
  JsonResponse,
  RedirectResponse,
  StreamingResponse,
} from "unruffled/http";
import { callback, dependency, endpoint, p, path, webhook } from "unruffled/route";
import { staticFiles } from "unruffled/static";
import { testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const Message = z.object({ message: z.string() }).meta({ id: "Message" });

describe("the parameter rows", () => {
  const read = endpoint({
    params: {
      q: p.Query(z.string(), { alias: "item-query" }),
      tags: p.Query(z.array(z.string())),
      user_agent: p.Header(z.string()),
      session: p.Cookie(z.string()),
    },
    returns: JsonResponse,
    handler: (_request, params) => new JsonResponse(params),
  });
  const camel = endpoint({
    params: { userAgent: p.Header(z.string()) },
    returns: JsonResponse,
    handler: (_request, params) => new JsonResponse(params),
  });
  const upload = endpoint({
    params: { title: p.Form(z.string()), file: p.File(), more: p.File({ list: true }) },
    returns: JsonResponse,
    handler: async (_request, { title, file, more }) =>
      new JsonResponse({
        title,
        file: [file.filename, file.size, file.contentType, (await file.read()).toString()],
        more: more.map((one) => one.filename),
      }),
  });
  const client = testClient(
    createApp({
      routes: [
        path("/read", { endpoint: read }),
        path("/camel", { endpoint: camel }),
        path("/upload", { endpoint: upload, methods: ["POST"] }),
      ],
    }),
  );

  it("reads an alias, a list from repeated query fields, user_agent from user-agent, and a cookie", async () => {
    const response = await client.get("/read", {
      query: { "item-query": "teapot", tags: ["a", "b"] },
      headers: { "user-agent": "curl/8" },
      cookies: { session: "s1" },
    });
    expect([response.status, response.json()]).toEqual([
      200,
      { q: "teapot", tags: ["a", "b"], user_agent: "curl/8", session: "s1" },
    ]);
    const camel = await client.get("/camel", { headers: { "user-agent": "curl/8" } });
    expect([camel.status, camel.json()]).toEqual([200, { userAgent: "curl/8" }]);
  });

  it("reads a form field, a file (filename, size, contentType, read()) and a list of files", async () => {
    const response = await client.post("/upload", {
      form: { title: "Notes" },
      files: {
        file: { filename: "a.txt", content: "hello", contentType: "text/plain" },
        more: [
          { filename: "b.txt", content: "b" },
          { filename: "c.txt", content: "c" },
        ],
      },
    });
    expect([response.status, response.json()]).toEqual([
      200,
      { title: "Notes", file: ["a.txt", 5, "text/plain", "hello"], more: ["b.txt", "c.txt"] },
    ]);
  });
});

describe("the embedded body row", () => {
  it('reads Body(embed=True)\'s {"item": {…}} with p.Json(Item, { embed: true }), and answers its absence at body.item', async () => {
    const Item = z.object({ name: z.string(), price: z.number() });
    const update = endpoint({
      params: { item: p.Json(Item, { embed: true }) },
      returns: JsonResponse,
      handler: (_request, params) => new JsonResponse(params),
    });
    const client = testClient(
      createApp({ routes: [path("/items", { endpoint: update, methods: ["PUT"] })] }),
    );
    const read = await client.put("/items", { json: { item: { name: "Foo", price: 1 } } });
    expect([read.status, read.json()]).toEqual([200, { item: { name: "Foo", price: 1 } }]);
    const flat = await client.put("/items", { json: { name: "Foo", price: 1 } });
    expect([flat.status, flat.json()]).toEqual([
      422,
      { detail: [{ loc: ["body", "item"], msg: "Field required", type: "missing", input: null }] },
    ]);
  });
});

describe("the path rows", () => {
  it('serves path("/files/{file_path:path}", { endpoint }): the rest of the path, slashes included', async () => {
    const readFile = endpoint({
      params: { file_path: z.string() },
      returns: JsonResponse,
      handler: (_request, params) => new JsonResponse(params),
    });
    const client = testClient(
      createApp({ routes: [path("/files/{file_path:path}", { endpoint: readFile })] }),
    );
    const response = await client.get("/files/docs/a/b.txt");
    expect([response.status, response.json()]).toEqual([200, { file_path: "docs/a/b.txt" }]);
  });
});

describe("the response rows", () => {
  const Item = z.object({ id: z.int(), note: z.string().nullish(), size: z.int().default(1) });
  const created = endpoint({
    returns: [p.ResponseSpec({ code: "201", model: Item, exclude_none: true, exclude_defaults: true })],
    handler: () => new JsonResponse({ id: 7, note: null, size: 1, secret: "s" } as never),
  });
  const missing = endpoint({
    returns: [HttpResponse, p.ResponseSpec({ code: "404", model: Message })],
    handler: () => new JsonResponse({ message: "gone", extra: 1 } as never, { status: 404 }),
  });
  const page = endpoint({
    returns: HtmlResponse,
    handler: () => new HtmlResponse("<p>hi</p>").setCookie("seen", "1"),
  });
  const hidden = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({}) });
  const student = endpoint({
    params: { id: p.Path(z.int()) },
    returns: JsonResponse,
    handler: (_request, { id }) => {
      if (id === 1) throw new HttpError(404, "Student 1 not found");
      throw new NotFoundError(`Student ${id} not found`);
    },
  });
  const app = createApp({
    settings: { OPENAPI: { info: { title: "Rows", version: "1" }, allow_public: true } },
    routes: [
      path("/created", { endpoint: created, methods: ["POST"], operationId: "create_item", tags: ["items"] }),
      path("/missing", { endpoint: missing }),
      path("/page", { endpoint: page }),
      path("/hidden", { endpoint: hidden, includeInSchema: false }),
      path("/students/{id}", { endpoint: student }),
    ],
  });
  const client = testClient(app);

  it("answers the one success status of ResponseSpec({ code: '201' }), the model filtering, without nulls and defaults", async () => {
    const response = await client.post("/created");
    expect([response.status, response.json()]).toEqual([201, { id: 7 }]);
  });

  it("sends a 404 body through its ResponseSpec's model beside HttpResponse", async () => {
    const response = await client.get("/missing");
    expect([response.status, response.json()]).toEqual([404, { message: "gone" }]);
  });

  it("answers HTML with HtmlResponse, and setCookie sets a cookie", async () => {
    const response = await client.get("/page");
    expect([response.status, response.headers.get("content-type"), response.text]).toEqual([
      200,
      "text/html; charset=utf-8",
      "<p>hi</p>",
    ]);
    expect(response.headers.getSetCookie()).toEqual([expect.stringMatching(/^seen=1(;|$)/)]);
  });

  it("names the operation by operationId, tags it, and leaves out a route with includeInSchema: false", () => {
    const document = app.openapi() as {
      paths: Record<string, Record<string, { operationId: string; tags: string[] }>>;
    };
    expect(document.paths["/created"]?.post).toMatchObject({ operationId: "create_item", tags: ["items"] });
    expect(document.paths["/hidden"]).toBeUndefined();
  });

  it("answers HttpError(404, …) and NotFoundError(…) with 404 and the detail", async () => {
    for (const id of [1, 2]) {
      const response = await client.get(`/students/${id}`);
      expect([response.status, response.json()]).toEqual([404, { detail: `Student ${id} not found` }]);
    }
  });

  it("serves /openapi/docs, /openapi/redoc and /openapi/openapi.json", async () => {
    for (const page of ["/openapi/docs", "/openapi/redoc", "/openapi/openapi.json"]) {
      expect([page, (await client.get(page)).status]).toEqual([page, 200]);
    }
  });
});

describe("the error, dependency and lifecycle rows", () => {
  class OutOfStock extends Error {}
  const events: string[] = [];

  const database = dependency({ resolve: () => "the real database" });
  const fakeDatabase = dependency({ resolve: () => "a fake database" });
  const perFunction = dependency({
    scope: "function",
    *resolve() {
      events.push("function: entered");
      yield "handle";
      events.push("function: ended");
    },
  });
  const conflict = dependency({
    async *resolve() {
      try {
        yield undefined;
      } catch {
        throw new HttpError(409, "Conflict in the clean-up");
      }
    },
  });
  const stamp = dependency({
    params: { draft: p.Response() },
    resolve: (_request, { draft }) => {
      draft.setHeader("x-stamp", "1").setCookie("visited", "yes");
      draft.status = 202;
    },
  });
  const appWide = dependency({
    resolve: () => {
      events.push("app dependency");
    },
  });

  const buy = endpoint({
    params: { count: p.Query(z.int()) },
    returns: JsonResponse,
    handler: () => {
      throw new OutOfStock("Sold out");
    },
  });
  const work = endpoint({
    params: { db: p.Depends(database), handle: p.Depends(perFunction), _stamp: p.Depends(stamp) },
    returns: JsonResponse,
    handler: (request, { db, handle }) => {
      events.push("handler");
      request.afterResponse(() => {
        events.push("after the response");
      });
      return new JsonResponse({ db, handle, text: "x".repeat(2_000) });
    },
  });
  const fail = endpoint({
    params: { _conflict: p.Depends(conflict) },
    returns: JsonResponse,
    handler: () => {
      throw new Error("The handler failed");
    },
  });
  const app = createApp({
    dependencies: [appWide],
    middleware: [
      async (request, next) => {
        const response = await next(request);
        response.headers["x-middleware"] = "seen";
        return response;
      },
      compression({ threshold: 1_000 }),
    ],
    exceptionHandlers: [
      exceptionHandler(
        OutOfStock,
        (error) => new JsonResponse({ out_of_stock: error.message }, { status: 409 }),
        {
          responses: [p.ResponseSpec({ code: "409", model: Message })],
        },
      ),
      exceptionHandler(
        RequestValidationError,
        (error) => new JsonResponse({ problems: error.issues.length }, { status: 400 }),
      ),
    ],
    onStartup: () => {
      events.push("startup");
    },
    onClose: () => {
      events.push("close");
    },
    routes: [
      path("/buy", { endpoint: buy }),
      path("/work", { endpoint: work }),
      path("/fail", { endpoint: fail }),
    ],
  });

  it("answers a custom error through exceptionHandler(MyError, handle, { responses }), documenting its answer", async () => {
    const response = await testClient(app).get("/buy", { query: { count: 1 } });
    expect([response.status, response.json()]).toEqual([409, { out_of_stock: "Sold out" }]);
    const document = app.openapi() as {
      paths: Record<string, { get: { responses: Record<string, unknown> } }>;
    };
    expect(Object.keys(document.paths["/buy"]!.get.responses)).toContain("409");
  });

  it("hands RequestValidationError's issues to its handler", async () => {
    const response = await testClient(app).get("/buy", { query: { count: "many" } });
    expect([response.status, response.json()]).toEqual([400, { problems: 1 }]);
  });

  it("runs onStartup once before the first request; the app's dependencies, a function-scoped dependency before the answer, p.Response(), middleware, compression and afterResponse", async () => {
    expect((await testClient(app).get("/buy", { query: { count: 1 } })).status).toBe(409);
    expect(events.filter((event) => event === "startup")).toHaveLength(1);
    events.length = 0;
    const response = await testClient(app, { overrides: [[database, fakeDatabase]] }).get("/work", {
      headers: { "accept-encoding": "gzip" },
    });
    expect(response.status).toBe(202);
    expect([response.headers.get("x-stamp"), response.headers.get("x-middleware")]).toEqual(["1", "seen"]);
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.getSetCookie()).toEqual([expect.stringMatching(/^visited=yes(;|$)/)]);
    expect(JSON.parse(gunzipSync(response.body).toString())).toEqual({
      db: "a fake database",
      handle: "handle",
      text: "x".repeat(2_000),
    });
    // A testClient with overrides starts its own copy of the app, whose onStartup runs too.
    await expect
      .poll(() => events.filter((event) => event !== "startup"))
      .toEqual(["app dependency", "function: entered", "handler", "function: ended", "after the response"]);
  });

  it("answers the HttpError a yield dependency throws in its catch", async () => {
    const response = await testClient(app).get("/fail");
    expect([response.status, response.json()]).toEqual([409, { detail: "Conflict in the clean-up" }]);
  });

  it("runs onClose at the close", async () => {
    await app.close();
    expect(events.at(-1)).toBe("close");
  });
});

describe("the host middleware rows", () => {
  const hello = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({ hello: "world" }) });
  const routes = [path("/", { endpoint: hello })];

  it("answers a listed host, redirects the bare domain of a www. host, and refuses another with 400", async () => {
    const client = testClient(
      createApp({ middleware: [trustedHost({ hosts: ["www.example.com", "*.example.com"] })], routes }),
    );
    const served = await client.get("/", { headers: { host: "api.example.com" } });
    const redirected = await client.get("/", { headers: { host: "example.com" } });
    const refused = await client.get("/", { headers: { host: "evil.example" } });
    expect([served.status, redirected.status, redirected.headers.get("location")]).toEqual([
      200,
      307,
      "http://www.example.com/",
    ]);
    expect([refused.status, refused.json()]).toEqual([400, { detail: "Invalid host header" }]);
  });

  it("redirects a plain HTTP request to HTTPS with 307", async () => {
    const response = await testClient(createApp({ middleware: [httpsRedirect()], routes })).get("/?q=1", {
      headers: { host: "example.com" },
    });
    expect([response.status, response.headers.get("location")]).toEqual([307, "https://example.com/?q=1"]);
  });
});

// docs/from-fastapi.md, "What differs": what FastAPI reads from text and unruffled refuses, written instead.
describe("the lists FastAPI reads from text, written as unruffled reads them", () => {
  const unique = (items: number[]) => new Set(items).size === items.length;
  const read = endpoint({
    params: {
      ids: p.Query(z.array(z.int()).refine(unique, "ids must be unique"), { default: [] }),
      tags: p.Query(z.array(z.string()), { default: [] }),
      point: p.Query(z.array(z.int()).length(2).optional()),
    },
    returns: JsonResponse,
    handler: (_request, params) => new JsonResponse(params),
  });
  const client = testClient(createApp({ routes: [path("/lists", { endpoint: read })] }));

  it("reads a set as z.array(z.int()) with a refine for uniqueness, refusing a repeated item", async () => {
    const ok = await client.get("/lists", { query: { ids: ["3", "1"] } });
    expect([ok.status, ok.json()]).toEqual([200, { ids: [3, 1], tags: [] }]);
    const repeated = await client.get("/lists", { query: { ids: ["3", "3"] } });
    expect(repeated.status).toBe(422);
    expect(repeated.json()).toEqual({
      detail: [{ loc: ["query", "ids"], msg: "ids must be unique", type: "custom", input: [3, 3] }],
    });
  });

  it("reads an untyped list as z.array(z.string())", async () => {
    const response = await client.get("/lists", { query: { tags: ["a", "7"] } });
    expect([response.status, response.json()]).toEqual([200, { ids: [], tags: ["a", "7"] }]);
  });

  it("reads a pair as z.array(z.int()).length(2), refusing three items", async () => {
    const pair = await client.get("/lists", { query: { point: ["4", "5"] } });
    expect([pair.status, pair.json()]).toEqual([200, { ids: [], tags: [], point: [4, 5] }]);
    const three = await client.get("/lists", { query: { point: ["4", "5", "6"] } });
    expect(three.status).toBe(422);
    expect(three.json()).toEqual({
      detail: [
        {
          loc: ["query", "point"],
          msg: "Too big: expected array to have exactly 2 items",
          type: "too_big",
          input: [4, 5, 6],
        },
      ],
    });
  });
});

describe("the redirect, streaming and URL rows", () => {
  const old = endpoint({ returns: RedirectResponse, handler: () => new RedirectResponse("/new") });
  const seeOther = endpoint({
    returns: RedirectResponse,
    handler: () => new RedirectResponse("/new", { status: 303 }),
  });
  const stream = endpoint({
    returns: StreamingResponse,
    handler: () => {
      async function* lines() {
        yield "a\n";
        yield new TextEncoder().encode("b\n");
      }
      return new StreamingResponse(lines(), { contentType: "text/plain" });
    },
  });
  const item = endpoint({
    returns: JsonResponse,
    handler: (request) =>
      new JsonResponse({
        url: request.urlFor("read_item", { id: 1 }),
        path: app.urlPathFor("read_item", { id: 2 }),
      }),
  });
  const app = createApp({
    routes: [
      path("/old", { endpoint: old }),
      path("/see-other", { endpoint: seeOther }),
      path("/stream", { endpoint: stream }),
      path("/items/{id}", { endpoint: item, name: "read_item" }),
    ],
  });
  const client = testClient(app);

  it("answers RedirectResponse(url) with 307 and the Location, or the status given", async () => {
    const temporary = await client.get("/old");
    const other = await client.get("/see-other");
    expect([
      [temporary.status, temporary.headers.get("location")],
      [other.status, other.headers.get("location")],
    ]).toEqual([
      [307, "/new"],
      [303, "/new"],
    ]);
  });

  it("sends what StreamingResponse(generator, media_type=…)'s generator yields, as that media type", async () => {
    const response = await client.get("/stream");
    expect([response.status, response.headers.get("content-type"), response.text]).toEqual([
      200,
      "text/plain",
      "a\nb\n",
    ]);
  });

  it("gives request.url_for's absolute URL with request.urlFor, and url_path_for's path with app.urlPathFor", async () => {
    const response = await client.get("/items/1", { headers: { host: "shop.example" } });
    expect(response.json()).toEqual({ url: "http://shop.example/items/1", path: "/items/2" });
  });
});

describe("the file rows", () => {
  it("answers new FileResponse(path, { filename }) with the file as an attachment, a Range with 206", async () => {
    const report = fileURLToPath(new URL("./examples/responses/files/report.txt", import.meta.url));
    const download = endpoint({
      returns: FileResponse,
      handler: () => new FileResponse(report, { filename: "report.txt" }),
    });
    const client = testClient(createApp({ routes: [path("/report", { endpoint: download })] }));
    const whole = await client.get("/report");
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-disposition")).toBe('attachment; filename="report.txt"');
    expect(whole.text).toBe("Enrolment report 2026\nStudents: 1204\nCourses: 87\n");
    const part = await client.get("/report", { headers: { range: "bytes=0-8" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 0-8/49");
    expect(part.text).toBe("Enrolment");
  });

  it('serves a folder with staticFiles("/static", { directory, name }) in routes, a missing file 404', async () => {
    const directory = fileURLToPath(new URL("./examples/responses/public", import.meta.url));
    const client = testClient(createApp({ routes: [staticFiles("/static", { directory, name: "static" })] }));
    const found = await client.get("/static/css/site.css");
    expect([found.status, found.headers.get("content-type"), found.text]).toEqual([
      200,
      "text/css; charset=utf-8",
      "body {\n  font-family: sans-serif;\n}\n",
    ]);
    const missing = await client.get("/static/missing.css");
    expect([missing.status, missing.json()]).toEqual([404, { detail: "Not Found: /static/missing.css" }]);
  });
});

describe("the OpenAPI rows beyond routes", () => {
  const subscribed = endpoint({
    params: { body: p.Json(Message) },
    returns: JsonResponse,
    handler: () => new JsonResponse({}),
  });

  it('documents app.webhooks.post("new-subscription") as webhook("new-subscription", { method: "POST", endpoint }), served by no route', async () => {
    const app = createApp({
      routes: [],
      webhooks: [webhook("new-subscription", { method: "POST", endpoint: subscribed })],
    });
    const document = app.openapi() as { webhooks: Record<string, Record<string, { requestBody: unknown }>> };
    expect(document.webhooks["new-subscription"]?.post?.requestBody).toEqual({
      required: true,
      content: { "application/json": { schema: { $ref: "#/components/schemas/Message" } } },
    });
    expect((await testClient(app).post("/new-subscription", { json: { message: "hi" } })).status).toBe(404);
  });

  it('documents callbacks=router.routes as callbacks: [callback("paid", { url, method, endpoint })] in the operation', () => {
    const app = createApp({
      routes: [
        path("/invoices", {
          endpoint: subscribed,
          methods: ["POST"],
          callbacks: [
            callback("paid", { url: "{$request.body#/url}", method: "POST", endpoint: subscribed }),
          ],
        }),
      ],
    });
    const document = app.openapi() as {
      paths: Record<
        string,
        Record<string, { callbacks: Record<string, Record<string, Record<string, unknown>>> }>
      >;
    };
    expect(
      Object.keys(document.paths["/invoices"]?.post?.callbacks.paid?.["{$request.body#/url}"] ?? {}),
    ).toEqual(["post"]);
  });

  it('merges openapi_extra={"x-aperture-labs-portal": "blue"} given as openapiExtra into the operation', () => {
    const app = createApp({
      routes: [path("/items", { endpoint: subscribed, openapiExtra: { "x-aperture-labs-portal": "blue" } })],
    });
    const operation = app.openapi().paths["/items"]?.get as unknown as Record<string, unknown>;
    expect(operation["x-aperture-labs-portal"]).toBe("blue");
  });
});
