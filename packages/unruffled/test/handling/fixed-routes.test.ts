import { cors, createApp } from "unruffled";
import { type HttpResponse, JsonResponse, PlainTextResponse, WebBodySource } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
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

const app = createApp({
  health: false,
  routes: [
    path("/hello", { endpoint: hello }),
    path("/list", { endpoint: list, methods: ["GET", "POST"] }),
    path("/items/{id}", { endpoint: item }),
    path("/cors", { endpoint: hello, middleware: [cors({ origins: ["https://app.example.com"] })] }),
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
});
