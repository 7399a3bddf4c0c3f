import { cors, createApp } from "unruffled";
import { type HttpResponse, JsonResponse, PlainTextResponse, WebBodySource } from "unruffled/http";
import { memoryStore, rateLimit } from "unruffled/rate-limit";
import { dependency, endpoint, p, path } from "unruffled/route";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("Hello, World!") });
const list = endpoint({
  params: { page: p.Query(z.int(), { default: 1, ge: 1 }) },
  returns: JsonResponse,
  handler: (_request, { page }) => new JsonResponse({ page }),
});
const item = endpoint({
  params: { id: p.Path(z.int()) },
  returns: JsonResponse,
  handler: (_request, { id }) => new JsonResponse({ id }),
});

const Bind = z.object({ id: z.int() });
const bind = endpoint({
  params: { body: p.Json(Bind) },
  returns: JsonResponse,
  handler: (_request, { body }) => new JsonResponse(body),
});
const user = dependency({ resolve: () => "someone" });
const bindAs = endpoint({
  params: { body: p.Json(Bind), user: p.Depends(user) },
  returns: JsonResponse,
  handler: (_request, { body }) => new JsonResponse(body),
});

const app = createApp({
  health: false,
  rateLimitStore: memoryStore(),
  routes: [
    path("/hello", { endpoint: hello }),
    path("/list", { endpoint: list, methods: ["GET", "POST"] }),
    path("/items/{id}", { endpoint: item }),
    path("/cors", { endpoint: hello, middleware: [cors({ origins: ["https://app.example.com"] })] }),
    path("/bind", { endpoint: bind, methods: ["POST"] }),
    path("/bind-as", { endpoint: bindAs, methods: ["POST"] }),
    path("/bind-limited", {
      endpoint: bind,
      methods: ["POST"],
      rateLimits: [rateLimit({ name: "test", limit: 10, window: 60 })],
    }),
    path("/bind-cors", {
      endpoint: bind,
      methods: ["POST"],
      middleware: [cors({ origins: ["https://app.example.com"] })],
    }),
  ],
});

const request = (method: string, url: string, headers: Record<string, string> = {}) =>
  app.createRequest({ method, url, headers, socket: undefined, body: new WebBodySource(null, null) });

const written = (response: HttpResponse) => ({
  status: response.status,
  headers: response.headers,
  body: response.body,
});

describe("the app's fixed routes", () => {
  it("are the routes at paths without placeholders, one per method", () => {
    const fixed = app.fixedRoutes().map(({ path, method }) => `${method} ${path}`);
    expect(fixed).toEqual(expect.arrayContaining(["GET /hello", "GET /list", "POST /list", "GET /cors"]));
    expect(fixed.filter((route) => route.includes("{"))).toEqual([]);
  });

  it("say which read a JSON body before anything else could answer, and for which media types", () => {
    const first = app.fixedRoutes().filter((route) => route.readsJsonFirst);
    expect(first.map(({ path, method }) => `${method} ${path}`)).toEqual(["POST /bind"]);
    const readsBodyOf = (type?: string) =>
      first[0]!.readsBodyOf(request("POST", "/bind", type === undefined ? {} : { "content-type": type }));
    expect([
      readsBodyOf(),
      readsBodyOf("application/json; charset=utf-8"),
      readsBodyOf("application/x+json"),
    ]).toEqual([true, true, true]);
    expect([readsBodyOf("text/plain"), readsBodyOf("multipart/form-data")]).toEqual([false, false]);
  });

  it.each([
    ["GET", "/hello", {}],
    ["GET", "/list?page=3", {}],
    ["POST", "/list?page=0", {}],
    ["GET", "/cors", { origin: "https://app.example.com" }],
  ] as const)("answer %s %s as handle() does", async (method, url, headers) => {
    await app.startup();
    const route = app.fixedRoutes().find((each) => each.method === method && url.startsWith(each.path))!;
    const id = { "x-request-id": "same-1", ...headers };
    const direct = await route.answer(request(method, url, id));
    const handled = await app.handle(request(method, url, id), false);
    expect(written(direct)).toEqual(written(handled));
  });

  it("answer in two steps, begun then answered, as handle() does", async () => {
    await app.startup();
    const route = app.fixedRoutes().find((each) => each.path === "/bind")!;
    const id = { "x-request-id": "same-2", "content-type": "application/json" };
    const begun = request("POST", "/bind", id);
    const started = route.begin(begun);
    expect(begun.id).toBe("same-2");
    const direct = await route.answerBegun(begun, started);
    const handled = await app.handle(request("POST", "/bind", id), false);
    expect(direct.status).toBe(422);
    expect(written(direct)).toEqual(written(handled));
  });
});
