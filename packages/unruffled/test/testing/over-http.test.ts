// testClient(app, { baseUrl }): the same requests and typed calls, sent to a server over HTTP
// (docs/testing.md, "Against a running server"). Each answer is compared with the in-process one.
import { Readable } from "node:stream";
import { gunzipSync } from "node:zlib";
import { compression, createApp } from "unruffled";
import { EventStreamResponse, HttpResponse, JsonResponse, PlainTextResponse } from "unruffled/http";
import { dependency, endpoint, p, path } from "unruffled/route";
import { type RunningServer, startServer, type TestResponse, testClient } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

const getItem = endpoint({
  params: {
    item_id: p.Path(z.int()),
    verbose: p.Query(z.boolean(), { default: false }),
    x_token: p.Header(z.string()),
    session: p.Cookie(z.string(), { default: "none" }),
  },
  returns: [
    p.ResponseSpec({
      model: z.object({ item_id: z.int(), verbose: z.boolean(), x_token: z.string(), session: z.string() }),
    }),
  ],
  handler: (_request, params) => new JsonResponse(params),
});
const createItem = endpoint({
  params: { item: p.Json(z.object({ id: z.int(), title: z.string() })) },
  returns: JsonResponse,
  handler: (_request, { item }) => new JsonResponse(item, { status: 201 }),
});
const streamed = endpoint({
  returns: HttpResponse,
  handler: () => new HttpResponse(Readable.from(["chunk 1, ", "chunk 2"]), {}, "text/plain"),
});
const withCookie = endpoint({
  returns: PlainTextResponse,
  handler: () => new PlainTextResponse("ok").setCookie("a", "1").setCookie("b", "2", { httpOnly: true }),
});
const moved = endpoint({
  returns: HttpResponse,
  handler: () => new HttpResponse(null, { status: 307, headers: { location: "/items/1" } }),
});
let sourcesOpen = 0;
const ticks = endpoint({
  returns: [p.ResponseSpec({ model: z.object({ n: z.int() }), content_type: "text/event-stream" })],
  handler: (request) =>
    new EventStreamResponse(
      (async function* () {
        sourcesOpen++;
        try {
          for (let n = 1; !request.signal.aborted; n++) {
            yield { data: { n } };
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
        } finally {
          sourcesOpen--;
        }
      })(),
    ),
});

const big = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("x".repeat(5000)) });

let startups = 0;
const app = createApp({
  settings: { LIMITS: { body_size: 64 } },
  middleware: [compression()],
  onStartup: [() => void startups++],
  routes: [
    path("/items/{item_id}", { endpoint: getItem }),
    path("/items", { endpoint: createItem, methods: ["POST"] }),
    path("/streamed", { endpoint: streamed }),
    path("/cookies", { endpoint: withCookie }),
    path("/moved", { endpoint: moved }),
    path("/ticks", { endpoint: ticks }),
    path("/big", { endpoint: big }),
  ],
});

/** What a test reads of an answer: everything but the headers that name the moment or the request. */
function seen(response: TestResponse) {
  const headers = Object.fromEntries(
    [...response.headers].filter(
      ([name]) => !["date", "x-request-id", "connection", "keep-alive"].includes(name),
    ),
  );
  return { status: response.status, headers, text: response.text, cookies: response.headers.getSetCookie() };
}

describe("a test client with a baseUrl", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(app);
  });
  afterAll(() => server.close());

  it("sends each request to the server and reads the answer as the in-process client does", async () => {
    const local = testClient(app);
    const remote = testClient(app, { baseUrl: server.url });
    const requests: Array<(client: typeof local) => Promise<TestResponse>> = [
      (client) => client.call(getItem, { item_id: 3, verbose: true, x_token: "t", session: "s" }),
      (client) => client.call(createItem, { item: { id: 1, title: "One" } }),
      (client) => client.get("/items/x"),
      (client) => client.post("/items", { json: { id: 1, title: "x".repeat(100) } }),
      (client) => client.delete("/items"),
      (client) => client.get("/nothing"),
      (client) => client.head("/streamed"),
      (client) => client.get("/streamed"),
      (client) => client.get("/cookies"),
      (client) => client.get("/moved"),
    ];
    for (const send of requests) expect(seen(await send(remote))).toEqual(seen(await send(local)));
    expect(seen(await remote.get("/moved"))).toMatchObject({
      status: 307,
      headers: { location: "/items/1" },
    });
  });

  // What a socket carries: no Accept-Encoding the test did not give, a compressed body as it came
  // (not decoded under its Content-Encoding and Content-Length), and the path as written.
  it("sends only the headers the test gives, and reads the bytes as they came, as in process", async () => {
    const local = testClient(app);
    const remote = testClient(app, { baseUrl: server.url });
    const requests: Array<(client: typeof local) => Promise<TestResponse>> = [
      (client) => client.get("/big"),
      (client) => client.get("/big", { headers: { "accept-encoding": "gzip" } }),
      (client) => client.get("/nothing/../cookies"),
      (client) => client.request("GET", "/items", { json: { id: 1, title: "a GET with a body" } }),
    ];
    for (const send of requests) expect(seen(await send(remote))).toEqual(seen(await send(local)));
    const gzipped = await remote.get("/big", { headers: { "accept-encoding": "gzip" } });
    expect([
      gzipped.headers.get("content-encoding"),
      gzipped.body.length,
      gunzipSync(gzipped.body).length,
    ]).toEqual(["gzip", Number(gzipped.headers.get("content-length")), 5000]);
  });

  it("reads an event stream's events as they come, and close() hangs up", async () => {
    const response = await testClient(app, { baseUrl: server.url }).call(ticks);
    const events = response.events();
    expect((await events.next()).value).toEqual({ data: { n: 1 } });
    expect((await events.next()).value).toEqual({ data: { n: 2 } });
    response.close();
    await events.return(undefined);
    await expect.poll(() => sourcesOpen, { timeout: 10_000 }).toBe(0);
  });

  it("runs nothing of the app in process: its startup hooks run where it is served", async () => {
    const other = createApp({ onStartup: [() => void startups++], routes: app.routes.flatMap(() => []) });
    const before = startups;
    await testClient(other, { baseUrl: server.url }).get("/cookies");
    expect(startups).toBe(before);
  });

  it("refuses a baseUrl that is no http(s) URL without a trailing slash, and overrides", () => {
    const message = (url: string) =>
      `testClient's baseUrl is an http(s) URL without a trailing slash, query or fragment (http://127.0.0.1:3000), got "${url}".`;
    for (const url of ["127.0.0.1:3000", "ftp://host", "http://host/", "http://host?a=1"]) {
      expect(() => testClient(app, { baseUrl: url })).toThrow(new TypeError(message(url)));
    }
    const clock = dependency({ resolve: () => 1 });
    expect(() =>
      testClient(app, { baseUrl: server.url, overrides: [[clock, dependency({ resolve: () => 2 })]] }),
    ).toThrow(
      new TypeError(
        "testClient's overrides replace dependencies in process: a client with a baseUrl calls a server, which resolves its own.",
      ),
    );
  });
});

describe("audit: docs/testing.md, the two differences that stay between the clients", () => {
  it("a method Node's parser does not know is a 400 over a socket and CONNECT closes without an answer; in process the app answers both with a 405", async () => {
    const server = await startServer(app);
    try {
      const remote = testClient(app, { baseUrl: server.url });
      const unknown = await remote.request("FOO", "/cookies");
      expect([unknown.status, unknown.json()]).toEqual([
        400,
        { detail: "Malformed HTTP request: Invalid method encountered" },
      ]);
      await expect(remote.request("CONNECT", "/cookies")).rejects.toThrow("socket hang up");
    } finally {
      await server.close();
    }
    const local = testClient(app);
    for (const method of ["FOO", "CONNECT"]) {
      const answer = await local.request(method, "/cookies");
      expect([answer.status, answer.headers.get("allow"), answer.json()]).toEqual([
        405,
        "GET, HEAD",
        { detail: "Method Not Allowed; allowed: GET, HEAD" },
      ]);
    }
  });
});
