// Served on Bun by bun-routes.test.ts twice, from two apps made alike: once by `serve(app)`, whose
// fixed paths Bun.serve routes itself (server/bun/bun-routes.ts), once by `Bun.serve({ fetch: app.fetch })`,
// the generic path. It prints `listening <routed port> <generic port>`.
import { cors, createApp, serve } from "unruffled";
import { HttpResponse, JsonResponse, PlainTextResponse } from "unruffled/http";
import { memoryStore, rateLimit } from "unruffled/rate-limit";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const hello = endpoint({
  returns: PlainTextResponse,
  handler: () => new PlainTextResponse("Hello, World!"),
});

const list = endpoint({
  params: { page: p.Query(z.int(), { default: 1, ge: 1 }), size: p.Query(z.int(), { default: 10, le: 100 }) },
  returns: JsonResponse,
  handler: (_request, { page, size }) => new JsonResponse({ page, size }),
});

const bind = endpoint({
  params: { body: p.Json(z.object({ student_id: z.int().gt(0), course_id: z.int().gt(0) })) },
  returns: JsonResponse,
  handler: (_request, { body }) => new JsonResponse({ bound: body }, { status: 201 }),
});

// A JSON body read again by an async handler, as text and as bytes, after its parameter.
const reread = endpoint({
  params: { body: p.Json(z.object({ name: z.string() })) },
  returns: JsonResponse,
  handler: async (request, { body }) =>
    new JsonResponse({
      name: body.name,
      text: await request.text(),
      bytes: (await request.body()).length,
      json: await request.json(),
    }),
});

// What the request tells of its own target and headers, read in the handler.
const echo = endpoint({
  params: { agent: p.Header(z.string(), { default: "none" }) },
  returns: JsonResponse,
  handler: (request, { agent }) =>
    new JsonResponse({
      url: request.url,
      path: request.path,
      queryString: request.queryString,
      query: request.query,
      agent,
      custom: request.headers["x-custom"] ?? null,
    }),
});

const item = endpoint({
  params: { id: p.Path(z.int()) },
  returns: JsonResponse,
  handler: (_request, { id }) => new JsonResponse({ id }),
});

const boom = endpoint({
  returns: JsonResponse,
  handler: (): JsonResponse => {
    throw new Error("boom");
  },
});

const asyncAnswer = endpoint({
  returns: HttpResponse,
  handler: async () => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return new HttpResponse("later", { status: 202, headers: { "x-made": "later" } });
  },
});

function makeApp() {
  return createApp({
    settings: { LIMITS: { body_size: 64 } },
    health: false,
    rateLimitStore: memoryStore(),
    routes: [
      path("/hello", { endpoint: hello }),
      path("/list", { endpoint: list }),
      path("/bind", { endpoint: bind, methods: ["POST", "PUT"] }),
      path("/reread", { endpoint: reread, methods: ["POST"] }),
      path("/echo", { endpoint: echo }),
      path("/items/{id}", { endpoint: item }),
      path("/boom", { endpoint: boom }),
      path("/later", { endpoint: asyncAnswer }),
      path("/cors", { endpoint: hello, middleware: [cors({ origins: ["https://app.example.com"] })] }),
      path("/limited", {
        endpoint: hello,
        rateLimits: [rateLimit({ name: "test", limit: 1_000, window: 3600, key: () => "everyone" })],
      }),
    ],
  });
}

const routed = await serve(makeApp(), { port: 0, host: "127.0.0.1" });
const generic = makeApp();
const bun = (globalThis as unknown as { Bun: { serve(options: object): { port: number } } }).Bun;
const genericServer = bun.serve({ port: 0, hostname: "127.0.0.1", development: false, fetch: generic.fetch });
console.log(`listening ${routed.port} ${genericServer.port}`);
