import { createApp, ValueError } from "unruffled";
import { JsonResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { echo } from "../support/echo.ts";
import { jsonOf, serve } from "../support/serve.ts";

const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("Hello, World!") });
const create = endpoint({
  returns: JsonResponse,
  handler: () => new JsonResponse({ created: true }, { status: 201 }),
});

const routes = [
  path("/hello", { endpoint: hello }),
  path("/api/enroll", {
    routes: [
      path("/hello", { endpoint: hello, name: "hello" }),
      path("/items", { endpoint: create, methods: ["POST", "PUT"] }),
      path("/items/{id}", { endpoint: echo({ id: z.int() }) }),
      path("/items/new", { endpoint: echo({}) }),
    ],
  }),
];

describe("routes and the app", () => {
  it("answers a route with its endpoint's response", async () => {
    const server = await serve(routes);
    const response = await server.fetch("/api/enroll/hello");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("content-length")).toBe("13");
    expect(await response.text()).toBe("Hello, World!");
  });

  it("answers HEAD wherever GET is answered, with the headers and no body", async () => {
    const server = await serve(routes);
    const response = await server.fetch("/hello", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBe("13");
    expect(await response.text()).toBe("");
  });

  it("answers 404 for an unknown path", async () => {
    const server = await serve(routes);
    expect(await jsonOf(server.fetch("/api/enroll/nope"))).toEqual({
      status: 404,
      body: { detail: "Not Found: /api/enroll/nope" },
    });
  });

  it("answers 405 with an Allow header for a known path and a wrong method", async () => {
    const server = await serve(routes);
    const response = await server.fetch("/hello", { method: "POST" });
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    expect(await jsonOf(response)).toEqual({
      status: 405,
      body: { detail: "Method Not Allowed; allowed: GET, HEAD" },
    });
    const items = await server.fetch("/api/enroll/items");
    expect(items.status).toBe(405);
    expect(items.headers.get("allow")).toBe("POST, PUT");
  });

  it("serves several methods on one route", async () => {
    const server = await serve(routes);
    expect(await jsonOf(server.fetch("/api/enroll/items", { method: "PUT" }))).toEqual({
      status: 201,
      body: { created: true },
    });
  });

  it("prefers a static segment over a placeholder", async () => {
    const server = await serve(routes);
    expect(await jsonOf(server.fetch("/api/enroll/items/new"))).toEqual({ status: 200, body: {} });
    expect(await jsonOf(server.fetch("/api/enroll/items/12"))).toEqual({ status: 200, body: { id: 12 } });
  });

  it("answers 400 for a malformed percent-encoding in a placeholder", async () => {
    const server = await serve(routes);
    expect(await jsonOf(server.fetch("/api/enroll/items/%E0%A4%A"))).toEqual({
      status: 400,
      body: { detail: "Malformed percent-encoding in the path: %E0%A4%A" },
    });
  });

  it("gives the same answers through app.fetch(Request)", async () => {
    const app = createApp({ routes });
    const hi = await app.fetch(new Request("http://app.test/api/enroll/hello"));
    expect(hi.status).toBe(200);
    expect(await hi.text()).toBe("Hello, World!");
    const missing = await app.fetch(new Request("http://app.test/nope"));
    expect(missing.status).toBe(404);
    const wrong = await app.fetch(new Request("http://app.test/hello", { method: "DELETE" }));
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, HEAD");
    const item = await app.fetch(new Request("http://app.test/api/enroll/items/5"));
    expect(await item.json()).toEqual({ id: 5 });
  });

  it("reads a JSON body through app.fetch(Request)", async () => {
    const app = createApp({
      routes: [
        path("/bind", { endpoint: echo({ body: p.Json(z.object({ a: z.int() })) }), methods: ["POST"] }),
      ],
    });
    const response = await app.fetch(
      new Request("http://app.test/bind", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"a":1}',
      }),
    );
    expect(await response.json()).toEqual({ body: { a: 1 } });
  });

  it("serves as a plain (req, res) handler", async () => {
    const { createServer } = await import("node:http");
    const app = createApp({ routes });
    const server = createServer(app.nodeHandler);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const response = await fetch(`http://127.0.0.1:${port}/hello`);
    expect(await response.text()).toBe("Hello, World!");
    await new Promise((resolve) => server.close(resolve));
  });

  it("resolves listen() to the listening server and stops on close()", async () => {
    const app = createApp({ routes });
    const server = await app.listen({ port: 0 });
    const { port } = server.address() as { port: number };
    expect((await fetch(`http://127.0.0.1:${port}/hello`)).status).toBe(200);
    await app.close();
    expect(server.listening).toBe(false);
  });
});

/** What building the app threw: its class name and message (a declaration error is a ValueError). */
function buildError(build: () => unknown): { isValueError: boolean; name: string; message: string } {
  try {
    build();
  } catch (error) {
    const { name, message } = error as Error;
    return { isValueError: error instanceof ValueError, name, message };
  }
  throw new Error("the app was built");
}

describe("two routes at one place are a declaration error (docs/endpoints-and-routes.md, The app)", () => {
  it("refuses two routes with the same method and path with a ValueError, when the app is built", () => {
    expect(
      buildError(() =>
        createApp({
          routes: [
            path("/items", { endpoint: hello }),
            path("/items", { endpoint: create, methods: ["POST", "GET"] }),
          ],
        }),
      ),
    ).toEqual({
      isValueError: true,
      name: "ValueError",
      message:
        'The routes "get_items" and "post_items" both answer GET /items; give each route its own path or method.',
    });
  });

  it("refuses two placeholders of different names at one place of a path with a ValueError", () => {
    expect(
      buildError(() =>
        createApp({
          routes: [
            path("/items/{id}", { endpoint: echo({ id: z.int() }) }),
            path("/items/{item_id}", { endpoint: echo({ item_id: z.int() }), methods: ["PUT"] }),
          ],
        }),
      ),
    ).toEqual({
      isValueError: true,
      name: "ValueError",
      message:
        'The placeholder {item_id} in "/items/{item_id}" clashes with {id} at the same place of another route; name it the same in both.',
    });
  });
});

describe("a {name:path} placeholder takes the rest of the path (docs/parameters.md, The rest of the path)", () => {
  const files = [
    path("/files/{file_path:path}", { endpoint: echo({ file_path: z.string() }), name: "read_file" }),
    path("/files/readme", { endpoint: echo({}), name: "readme" }),
    path("/texts/{name:path}", {
      endpoint: echo({ name: p.Path(z.string().regex(/\.txt$/)) }),
      name: "read_text",
    }),
  ];

  it("hands the parameter the rest of the path, slashes included", async () => {
    const server = await serve(files);
    expect(await jsonOf(server.fetch("/files/a/b/c.txt"))).toEqual({
      status: 200,
      body: { file_path: "a/b/c.txt" },
    });
    expect(await jsonOf(server.fetch("/files/one.txt"))).toEqual({
      status: 200,
      body: { file_path: "one.txt" },
    });
  });

  it("percent-decodes the rest as the other placeholders are decoded, an encoded slash included", async () => {
    const server = await serve(files);
    expect(await jsonOf(server.fetch("/files/a%20b/c%2Fd.txt"))).toEqual({
      status: 200,
      body: { file_path: "a b/c/d.txt" },
    });
    expect(await jsonOf(server.fetch("/files/a/%E0%A4%A"))).toEqual({
      status: 400,
      body: { detail: "Malformed percent-encoding in the path: a/%E0%A4%A" },
    });
  });

  it("matches an empty rest after the slash, as Starlette's path convertor does, but not the path without it", async () => {
    const server = await serve(files);
    expect(await jsonOf(server.fetch("/files/"))).toEqual({ status: 200, body: { file_path: "" } });
    expect(await jsonOf(server.fetch("/files"))).toEqual({
      status: 404,
      body: { detail: "Not Found: /files" },
    });
  });

  it("prefers a static path over the rest placeholder", async () => {
    const server = await serve(files);
    expect(await jsonOf(server.fetch("/files/readme"))).toEqual({ status: 200, body: {} });
    expect(await jsonOf(server.fetch("/files/readme/more"))).toEqual({
      status: 200,
      body: { file_path: "readme/more" },
    });
  });

  it("validates the whole rest with the parameter's schema", async () => {
    const server = await serve(files);
    expect(await jsonOf(server.fetch("/texts/notes/a.txt"))).toEqual({
      status: 200,
      body: { name: "notes/a.txt" },
    });
    const refused = await jsonOf(server.fetch("/texts/notes/a.png"));
    expect(refused.status).toBe(422);
    expect((refused.body as { detail: { loc: unknown[]; input: unknown }[] }).detail).toMatchObject([
      { loc: ["path", "name"], input: "notes/a.png" },
    ]);
  });
});

describe("a placeholder no parameter reads", () => {
  const seen = endpoint({
    params: { q: z.string() },
    returns: JsonResponse,
    handler: (request, values) => new JsonResponse({ values, pathParams: request.pathParams }),
  });

  it("still matches and is in request.pathParams, but is not handed to the handler", async () => {
    const server = await serve([path("/items/{ids}", { endpoint: seen })]);
    expect(await jsonOf(server.fetch("/items/a%2Cb?q=x"))).toEqual({
      status: 200,
      body: { values: { q: "x" }, pathParams: { ids: "a,b" } },
    });
  });
});

describe("a route path is written decoded and a request's path matched decoded (docs/endpoints-and-routes.md, What the router answers)", () => {
  const says = (text: string) =>
    endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse(text) });
  const encoded = [
    path("/café", { endpoint: says("café") }),
    path("/to here", { endpoint: says("to here") }),
    path("/cafe", { endpoint: says("cafe") }),
    path("/a/b", { endpoint: says("a/b") }),
    path("/menu/crème brûlée/{size}", { endpoint: echo({ size: z.string() }) }),
  ];
  const textOf = async (response: Promise<Response>) => {
    const resolved = await response;
    return { status: resolved.status, text: await resolved.text() };
  };

  it("answers a route whose path has a character a client must encode at the path the client sends", async () => {
    const server = await serve(encoded);
    expect(await textOf(server.fetch("/caf%C3%A9"))).toEqual({ status: 200, text: "café" });
    expect(await textOf(server.fetch("/caf%c3%a9"))).toEqual({ status: 200, text: "café" });
    expect(await textOf(server.fetch("/to%20here"))).toEqual({ status: 200, text: "to here" });
    expect(await jsonOf(server.fetch("/menu/cr%C3%A8me%20br%C3%BBl%C3%A9e/large%20one"))).toEqual({
      status: 200,
      body: { size: "large one" },
    });
  });

  it("matches an unreserved character sent percent-encoded as the character (RFC 3986 §6.2.2.2)", async () => {
    const server = await serve([...encoded, ...routes]);
    expect(await textOf(server.fetch("/caf%65"))).toEqual({ status: 200, text: "cafe" });
    expect(await jsonOf(server.fetch("/api/enroll/it%65ms/5"))).toEqual({ status: 200, body: { id: 5 } });
  });

  it("never matches an encoded slash to a slash of the route path", async () => {
    const server = await serve(encoded);
    expect(await jsonOf(server.fetch("/a%2Fb"))).toEqual({
      status: 404,
      body: { detail: "Not Found: /a%2Fb" },
    });
    expect(await jsonOf(server.fetch("/a%2fb"))).toEqual({
      status: 404,
      body: { detail: "Not Found: /a%2fb" },
    });
  });

  it("answers 404, not 400, for a malformed percent-encoding where the route has a fixed segment", async () => {
    const server = await serve(encoded);
    expect(await jsonOf(server.fetch("/caf%C3"))).toEqual({
      status: 404,
      body: { detail: "Not Found: /caf%C3" },
    });
  });

  it("refuses a percent-encoding in a declared route path, naming the path to write", () => {
    expect(buildError(() => path("/a%20b", { endpoint: hello }))).toEqual({
      isValueError: true,
      name: "ValueError",
      message:
        'The route path "/a%20b" has a percent-encoding (%20); write the path decoded, as "/a b": the router matches a request\'s path decoded, and a client sends "/a%20b" for it.',
    });
    expect(buildError(() => path("/100%", { endpoint: hello }))).toEqual({
      isValueError: true,
      name: "ValueError",
      message:
        'The route path "/100%" holds a "%": the router matches a request\'s path decoded, so a route path is written decoded and cannot hold a literal "%".',
    });
  });

  it("refuses a lone UTF-16 surrogate in a declared route path, naming the path and the surrogate", () => {
    expect(buildError(() => path("/a\uD800", { endpoint: hello }))).toEqual({
      isValueError: true,
      name: "ValueError",
      message:
        'The route path "/a\\ud800" holds a lone UTF-16 surrogate (\\ud800, character 3): a client sends a path as UTF-8, which has no form for half a surrogate pair. Write the whole character (both halves of its pair), or leave it out.',
    });
    // Either half alone, in a group's prefix too; a whole pair (an emoji) is a character as any other.
    expect(buildError(() => path("/\uDE00x/{id}", { routes: [] }))).toEqual({
      isValueError: true,
      name: "ValueError",
      message:
        'The route path "/\\ude00x/{id}" holds a lone UTF-16 surrogate (\\ude00, character 2): a client sends a path as UTF-8, which has no form for half a surrogate pair. Write the whole character (both halves of its pair), or leave it out.',
    });
    expect(path("/\uD83D\uDE00", { endpoint: hello }).path).toBe("/😀");
  });
});
