import { Readable } from "node:stream";
import { type App, createApp, generateClient } from "unruffled";
import { bindOperations } from "unruffled/client";
import type { UploadFile } from "unruffled/file";
import { HttpRequest, HttpResponse, JsonResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, type ParamDeclarations, p, path } from "unruffled/route";
import { startServer, testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { echo } from "../support/echo.ts";

const Filters = z.object({ status: z.enum(["active", "done"]), tag: z.array(z.string()).default([]) });
const Item = z.object({ id: z.int(), title: z.string() }).meta({ id: "Item" });
// What getItem answers: the parameters it was given (its answer goes out through this model).
const ItemRequest = z.object({
  item_id: z.int(),
  verbose: z.boolean(),
  x_token: z.string(),
  session: z.string(),
});

const getItem = endpoint({
  params: {
    item_id: p.Path(z.int()),
    verbose: p.Query(z.boolean(), { default: false }),
    x_token: p.Header(z.string()),
    session: p.Cookie(z.string(), { default: "none" }),
  },
  returns: [p.ResponseSpec({ model: ItemRequest })],
  handler: (_request, params) => new JsonResponse(params),
});
const search = echo({ filters: p.Query(Filters), page: p.Query(z.int(), { default: 1 }) });
const createItem = echo({ item: p.Json(Item), note: p.Json(z.string(), { default: "" }) });
const replaceItem = echo({ item: p.Json(Item) });
const signUp = echo({ name: p.Form(z.string()), age: p.Form(z.int()) });
const uploadCv = endpoint({
  params: { cv: p.File(), extras: p.File({ list: true, optional: true }), title: p.Form(z.string()) },
  returns: JsonResponse,
  async handler(_request, { cv, extras, title }) {
    const describe = async (file: UploadFile) => ({ ...file.toJSON(), text: await file.text() });
    return new JsonResponse({
      title,
      cv: await describe(cv),
      extras: await Promise.all(extras.map(describe)),
    });
  },
});
const raw = endpoint({
  returns: JsonResponse,
  async handler(request) {
    return new JsonResponse({
      method: request.method,
      url: request.url,
      type: request.contentType,
      text: await request.text(),
      cookie: request.headers.cookie ?? null,
      authorization: request.headers.authorization ?? null,
      client: request.client,
    });
  },
});
const streamed = endpoint({
  returns: HttpResponse,
  handler: () => new HttpResponse(Readable.from(["chunk 1, ", "chunk 2"]), {}, "text/plain"),
});
const withCookie = endpoint({
  returns: PlainTextResponse,
  handler: () => new PlainTextResponse("ok").setCookie("a", "1").setCookie("b", "2", { httpOnly: true }),
});

const app = createApp({
  settings: { LIMITS: { body_size: 64 } },
  routes: [
    path("/items/{item_id}", { endpoint: getItem, name: "get_item" }),
    path("/items", { endpoint: search, name: "search_items" }),
    path("/items", { endpoint: createItem, methods: ["POST"], name: "create_item" }),
    path("/items/replace", { endpoint: replaceItem, methods: ["PUT", "PATCH"], name: "replace_item" }),
    path("/items/replace-again", { endpoint: replaceItem, methods: ["PUT"], name: "replace_item_again" }),
    path("/sign-up", { endpoint: signUp, methods: ["POST"] }),
    path("/cv", { endpoint: uploadCv, methods: ["POST"] }),
    path("/raw", { endpoint: raw, methods: ["GET", "POST", "DELETE"] }),
    path("/streamed", { endpoint: streamed }),
    path("/cookies", { endpoint: withCookie }),
  ],
});
const client = testClient(app);

describe("requests by path", () => {
  it("sends the query string, coerced and validated by the endpoint", async () => {
    const response = await client.get("/items", {
      query: { status: "active", tag: ["a", "b"], page: 2, ignored: undefined },
    });
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ filters: { status: "active", tag: ["a", "b"] }, page: 2 });
  });

  it("adds query values to a query string already in the path", async () => {
    const response = await client.get("/raw?a=1", { query: { b: "two words" } });
    expect(response.json()).toMatchObject({ url: "/raw?a=1&b=two+words" });
  });

  it("sends headers and cookies; the request sees a loopback client", async () => {
    const response = await client.get("/raw", {
      headers: { Authorization: "Bearer t" },
      cookies: { session: "a b", theme: "dark" },
    });
    expect(response.json()).toEqual({
      method: "GET",
      url: "/raw",
      type: "",
      text: "",
      cookie: "session=a%20b; theme=dark",
      authorization: "Bearer t",
      client: {
        address: "127.0.0.1",
        host: "127.0.0.1",
        port: 50000,
        scheme: "http",
        origin: "http://localhost",
      },
    });
  });

  it("sends a JSON body", async () => {
    const response = await client.post("/items", { json: { id: 1, title: "One" } });
    expect(response.json()).toEqual({ item: { id: 1, title: "One" }, note: "" });
  });

  it("sends an urlencoded form", async () => {
    const response = await client.post("/sign-up", { form: { name: "Ann Lee", age: 20 } });
    expect(response.json()).toEqual({ name: "Ann Lee", age: 20 });
  });

  it("uploads files as multipart, with form fields beside them", async () => {
    const response = await client.post("/cv", {
      form: { title: "My CV" },
      files: {
        cv: { filename: 'cv "final".txt', content: "I can code", contentType: "text/plain" },
        extras: [
          { filename: "a.bin", content: new Uint8Array([104, 105]) },
          { filename: "b.txt", content: "b" },
        ],
      },
    });
    expect(response.json()).toEqual({
      title: "My CV",
      cv: { filename: "cv %22final%22.txt", contentType: "text/plain", size: 10, text: "I can code" },
      extras: [
        { filename: "a.bin", contentType: "application/octet-stream", size: 2, text: "hi" },
        { filename: "b.txt", contentType: "application/octet-stream", size: 1, text: "b" },
      ],
    });
  });

  it("sends a raw body with the content type given", async () => {
    const response = await client.post("/raw", { body: "<a/>", headers: { "content-type": "text/xml" } });
    expect(response.json()).toMatchObject({ method: "POST", type: "text/xml", text: "<a/>" });
  });

  it("answers with status, headers, text and content-length as on the wire", async () => {
    const response = await client.get("/items/7", { headers: { "x-token": "t" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("content-length")).toBe(String(response.text.length));
    expect(response.text).toBe('{"item_id":7,"verbose":false,"x_token":"t","session":"none"}');
  });

  it("answers HEAD with the headers of GET and no body", async () => {
    const response = await client.head("/streamed");
    expect([response.status, response.headers.get("content-type"), response.text]).toEqual([
      200,
      "text/plain",
      "",
    ]);
  });

  it("reads a streamed body to the end", async () => {
    expect((await client.get("/streamed")).text).toBe("chunk 1, chunk 2");
  });

  it("lists every Set-Cookie", async () => {
    expect((await client.get("/cookies")).headers.getSetCookie()).toEqual(["a=1", "b=2; HttpOnly"]);
  });

  it("goes through routing and the exception handlers: 404, 405 with Allow, 422, 413", async () => {
    const missing = await client.get("/nothing");
    expect([missing.status, missing.json()]).toEqual([404, { detail: "Not Found: /nothing" }]);
    const wrongMethod = await client.delete("/items");
    expect([wrongMethod.status, wrongMethod.headers.get("allow")]).toEqual([405, "GET, POST, HEAD"]);
    const invalid = await client.get("/items/x");
    expect([invalid.status, invalid.json()]).toEqual([
      422,
      {
        detail: [
          {
            loc: ["path", "item_id"],
            msg: "Invalid input: expected number, received string",
            type: "invalid_type",
            input: "x",
          },
          { loc: ["header", "x-token"], msg: "Field required", type: "missing", input: null },
        ],
      },
    ]);
    const tooLarge = await client.post("/items", { json: { id: 1, title: "x".repeat(100) } });
    expect([tooLarge.status, tooLarge.json()]).toEqual([
      413,
      { detail: "Request body is larger than the limit of 64 bytes" },
    ]);
  });

  it("uses the app's request class", async () => {
    class TenantRequest extends HttpRequest {
      get tenant(): string {
        return String(this.headers["x-tenant"] ?? "public");
      }
    }
    const tenant = endpoint({
      returns: PlainTextResponse,
      handler: (request: TenantRequest) => new PlainTextResponse(request.tenant),
    });
    const tenantApp = createApp({ routes: [path("/t", { endpoint: tenant })], requestClass: TenantRequest });
    expect((await testClient(tenantApp).get("/t", { headers: { "x-tenant": "acme" } })).text).toBe("acme");
  });

  it("adds the client's default headers and cookies to every request; a request's own win", async () => {
    const withDefaults = testClient(app, {
      headers: { authorization: "Bearer default" },
      cookies: { session: "s1", theme: "light" },
    });
    const response = await withDefaults.get("/raw", { cookies: { theme: "dark" } });
    expect(response.json()).toMatchObject({
      cookie: "session=s1; theme=dark",
      authorization: "Bearer default",
    });
    const own = await withDefaults.get("/raw", { headers: { Authorization: "Bearer own" } });
    expect(own.json()).toMatchObject({ authorization: "Bearer own" });
  });

  it("refuses two bodies and a path that is not absolute", async () => {
    await expect(client.post("/items", { json: {}, form: {} })).rejects.toThrow(
      "A test request takes one body: json, form (with or without files), files, or body.",
    );
    await expect(client.get("items")).rejects.toThrow('A test request path starts with "/", got "items".');
  });

  it("says so when a body is not JSON", async () => {
    const response = await client.get("/streamed");
    expect(() => response.json()).toThrow("The response body is not JSON (status 200): chunk 1, chunk 2");
  });
});

describe("calls by endpoint", () => {
  it("puts each parameter where the endpoint reads it: path, query, header, cookie", async () => {
    const response = await client.call(getItem, { item_id: 3, verbose: true, x_token: "t", session: "s" });
    expect(response.json()).toEqual({ item_id: 3, verbose: true, x_token: "t", session: "s" });
  });

  it("fills a {name:path} placeholder with its slashes kept and every other character encoded", async () => {
    const readFile = echo({ file_path: z.string() });
    const files = testClient(
      createApp({ routes: [path("/files/{file_path:path}", { endpoint: readFile })] }),
    );
    const response = await files.call(readFile, { file_path: "a/b c?.txt" });
    expect([response.status, response.json()]).toEqual([200, { file_path: "a/b c?.txt" }]);
  });

  it("spreads a query model over its fields and repeats list keys", async () => {
    const response = await client.call(search, { filters: { status: "done", tag: ["x", "y"] } });
    expect(response.json()).toEqual({ filters: { status: "done", tag: ["x", "y"] }, page: 1 });
  });

  it("sends JSON: a model beside a scalar reads the top level", async () => {
    const response = await client.call(createItem, { item: { id: 2, title: "Two" }, note: "n" });
    expect(response.json()).toEqual({ item: { id: 2, title: "Two" }, note: "n" });
  });

  it("sends forms and files", async () => {
    expect((await client.call(signUp, { name: "Bo", age: 30 })).json()).toEqual({ name: "Bo", age: 30 });
    const response = await client.call(uploadCv, { cv: { filename: "cv.txt", content: "cv" }, title: "T" });
    expect(response.json()).toEqual({
      title: "T",
      cv: { filename: "cv.txt", contentType: "application/octet-stream", size: 2, text: "cv" },
      extras: [],
    });
  });

  it("takes extra headers, another method, and a route by name", async () => {
    const response = await client.call(
      getItem,
      { item_id: 1, x_token: "from params" },
      { headers: { "x-token": "from options" }, query: { verbose: "1" } },
    );
    expect(response.json()).toMatchObject({ x_token: "from options", verbose: true });
    const patched = await client.call(
      replaceItem,
      { item: { id: 5, title: "Five" } },
      { route: "replace_item", method: "PATCH" },
    );
    expect(patched.json()).toEqual({ item: { id: 5, title: "Five" } });
  });

  it("explains an endpoint served by no route, by several, or by none of that name", async () => {
    const unserved = echo({});
    await expect(client.call(unserved)).rejects.toThrow(
      "No route of this app serves the endpoint given to call().",
    );
    await expect(client.call(replaceItem, { item: { id: 1, title: "" } })).rejects.toThrow(
      'The endpoint is served by several routes, "replace_item" (/items/replace), "replace_item_again" (/items/replace-again); pick one with { route: name }.',
    );
    await expect(client.call(replaceItem, { item: { id: 1, title: "" } }, { route: "nope" })).rejects.toThrow(
      'No route named "nope" serves this endpoint; it is served by "replace_item" (/items/replace), "replace_item_again" (/items/replace-again).',
    );
  });

  it("leaves out a list whose default is written [] (docs/testing.md: those with a default may be left out)", async () => {
    const tagged = endpoint({
      params: { tag: p.Query(z.array(z.string()), { default: [] }) },
      returns: JsonResponse,
      handler: (_request, { tag }) => new JsonResponse({ tag }),
    });
    const taggedClient = testClient(createApp({ routes: [path("/tagged", { endpoint: tagged })] }));
    expect((await taggedClient.call(tagged, {})).json()).toEqual({ tag: [] });
    expect((await taggedClient.call(tagged, { tag: ["a", "b"] })).json()).toEqual({ tag: ["a", "b"] });
  });
});

/**
 * What the handler answered to the same call sent three ways: by the test client in process, by the
 * test client over HTTP, and by the generated client (the operation named `name`) over HTTP.
 */
async function answersOfEveryClient(
  app: App,
  called: Parameters<ReturnType<typeof testClient>["call"]>[0],
  name: string,
  params: object,
): Promise<unknown[]> {
  const server = await startServer(app);
  try {
    const plans = JSON.parse(/JSON\.parse\(`([\s\S]*?)`\)/.exec(generateClient(app))![1]!);
    const generated = bindOperations<Record<string, (params: object) => Promise<{ body: unknown }>>>(plans, {
      baseUrl: server.url,
    });
    return [
      (await testClient(app).call(called, params as never)).json(),
      (await testClient(app, { baseUrl: server.url }).call(called, params as never)).json(),
      (await generated[name]!(params)).body,
    ];
  } finally {
    await server.close();
  }
}

describe("an embedded JSON parameter is sent under its key, as FastAPI's Body(embed=True) is read", () => {
  const Item = z.object({ name: z.string(), price: z.number() });
  const seen = (params: ParamDeclarations) =>
    endpoint({
      params,
      returns: JsonResponse,
      handler: async (request, values) => new JsonResponse({ sent: await request.text(), values }),
    });
  const alone = seen({ item: p.Json(Item, { embed: true }) });
  const aliased = seen({ item: p.Json(Item, { embed: true, alias: "the-item" }), note: p.Json(z.string()) });
  const app = createApp({
    routes: [
      path("/alone", { endpoint: alone, methods: ["POST"], name: "alone" }),
      path("/aliased", { endpoint: aliased, methods: ["POST"], name: "aliased" }),
    ],
  });

  it.each([
    [
      "alone in the body",
      alone,
      "alone",
      { item: { name: "Foo", price: 1 } },
      { sent: '{"item":{"name":"Foo","price":1}}', values: { item: { name: "Foo", price: 1 } } },
    ],
    [
      "under its alias, beside a scalar",
      aliased,
      "aliased",
      { item: { name: "Foo", price: 1 }, note: "n" },
      {
        sent: '{"the-item":{"name":"Foo","price":1},"note":"n"}',
        values: { item: { name: "Foo", price: 1 }, note: "n" },
      },
    ],
  ])(
    "sends it %s, in process, over HTTP and from the generated client alike",
    async (_what, called, name, params, expected) => {
      expect(await answersOfEveryClient(app, called, name, params)).toEqual([expected, expected, expected]);
    },
  );
});

describe("audit: docs/parameters.md, a JSON value that is the whole body is sent as the value, as the generated client sends it", () => {
  const Pet = z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("cat"), lives: z.int() }),
    z.object({ kind: z.literal("dog"), good: z.boolean() }),
  ]);
  // What reached the server: the body as sent, its content type, and the value the handler got.
  const seen = (params: ParamDeclarations) =>
    endpoint({
      params,
      returns: JsonResponse,
      handler: async (request, values) =>
        new JsonResponse({
          sent: await request.text(),
          type: request.headers["content-type"] ?? null,
          value: (values as { v?: unknown }).v === undefined ? "undefined" : (values as { v?: unknown }).v,
        }),
    });
  const anything = seen({ v: p.Json(z.unknown()) });
  const maybePet = seen({ v: p.Json(Pet.optional()) });
  const app = createApp({
    routes: [
      path("/anything", { endpoint: anything, methods: ["POST"], name: "anything" }),
      path("/pet", { endpoint: maybePet, methods: ["POST"], name: "maybe_pet" }),
    ],
  });

  it.each([
    [
      "null, as JSON's null",
      anything,
      "anything",
      { v: null },
      { sent: "null", type: "application/json", value: null },
    ],
    [
      "nothing, when the value is left out",
      anything,
      "anything",
      {},
      { sent: "", type: null, value: "undefined" },
    ],
    [
      "nothing for an optional union left out, which the server reads as undefined",
      maybePet,
      "maybe_pet",
      {},
      { sent: "", type: null, value: "undefined" },
    ],
  ])(
    "sends %s, in process, over HTTP and from the generated client alike",
    async (_what, called, name, params, expected) => {
      expect(await answersOfEveryClient(app, called, name, params)).toEqual([expected, expected, expected]);
    },
  );
});

describe("audit: docs/testing.md, a call returns once the request's afterResponse() work has finished", () => {
  it("sees the effect of an asynchronous task queued by the handler, and of a second one it queued", async () => {
    const done: string[] = [];
    const later = endpoint({
      returns: PlainTextResponse,
      handler: (request) => {
        request.afterResponse(async () => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          done.push("first");
        });
        request.afterResponse(async () => {
          await new Promise((resolve) => setImmediate(resolve));
          done.push("second");
        });
        return new PlainTextResponse("answered");
      },
    });
    const client = testClient(createApp({ routes: [path("/later", { endpoint: later })] }));
    const response = await client.get("/later");
    expect([response.status, response.text, [...done].sort()]).toEqual([
      200,
      "answered",
      ["first", "second"],
    ]);
  });
});

describe("an empty list is sent as no value, in every source that carries lists", () => {
  const lists = endpoint({
    params: {
      tags: p.Header(z.array(z.string()), { default: ["none"] }),
      q: p.Query(z.array(z.string()), { default: ["none"] }),
    },
    returns: JsonResponse,
    handler: (request, { tags, q }) => new JsonResponse({ tags, q, line: request.headers.tags ?? null }),
  });
  const app = createApp({ routes: [path("/lists", { endpoint: lists, name: "lists" })] });

  it("sends no header line for an empty header list, as no query key for an empty query list: both read their default", async () => {
    const expected = { tags: ["none"], q: ["none"], line: null };
    expect(await answersOfEveryClient(app, lists, "lists", { tags: [], q: [] })).toEqual([
      expected,
      expected,
      expected,
    ]);
  });
});
