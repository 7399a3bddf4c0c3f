// "The test client behaves as the socket does" (docs/testing.md): arbitrary requests, each sent in
// process (`testClient(app)`) and over a loopback socket to the same app served by Node
// (`testClient(app, { baseUrl })`), must get the same observable answer.
import { appendFileSync } from "node:fs";
import { Readable } from "node:stream";
import fc from "fast-check";
import { createApp, type Middleware } from "unruffled";
import type { UploadFile } from "unruffled/file";
import { EventStreamResponse, HttpResponse, JsonResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import {
  type RunningServer,
  startServer,
  type TestClient,
  type TestResponse,
  testClient,
} from "unruffled/testing";
import { websocket } from "unruffled/websocket";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { echo } from "../support/echo.ts";
import { openRaw } from "../support/raw-http.ts";

const Item = z.object({ id: z.int(), title: z.string() });
const Filters = z.object({ status: z.enum(["active", "done"]), tag: z.array(z.string()).default([]) });

// Everything the app can read of a request, but what only a socket has: the client's port and the
// hop-by-hop Connection header. The client's own Host (the server's address, or "localhost" in
// process) reads as "own".
const raw = endpoint({
  returns: JsonResponse,
  async handler(request) {
    const { connection: _connection, ...headers } = request.headers;
    if (headers.host === "localhost" || /^127\.0\.0\.1:\d+$/.test(headers.host ?? "")) headers.host = "own";
    return new JsonResponse({
      method: request.method,
      path: request.path,
      query: request.queryString,
      headers,
      cookies: request.cookies,
      body: (await request.body()).toString("latin1"),
    });
  },
});
const getItem = echo({
  item_id: p.Path(z.int()),
  tags: p.Query(z.array(z.string()), { default: [] }),
  q: p.Query(z.string(), { default: "" }),
  flag: p.Query(z.boolean(), { default: false }),
  x_mode: p.Header(z.string(), { default: "none" }),
  session: p.Cookie(z.string(), { default: "none" }),
});
const search = echo({ filters: p.Query(Filters) });
const createItem = echo({ item: p.Json(Item) });
const signUp = echo({ name: p.Form(z.string()), tags: p.Form(z.array(z.string()), { default: [] }) });
const upload = endpoint({
  params: { doc: p.File(), title: p.Form(z.string(), { default: "" }) },
  returns: JsonResponse,
  async handler(_request, { doc, title }) {
    const file: UploadFile = doc;
    return new JsonResponse({ title, ...file.toJSON(), text: await file.text() });
  },
});
const named = echo({ name: p.Path(z.string()) });
const typed = endpoint({
  params: {
    when: p.Query(z.date()),
    amount: p.Query(z.number()),
    label: p.Header(z.string()),
    theme: p.Cookie(z.string()),
    note: p.Path(z.string()),
  },
  returns: [
    p.ResponseSpec({
      model: z.object({
        when: z.date(),
        amount: z.number(),
        label: z.string(),
        theme: z.string(),
        note: z.string(),
      }),
    }),
  ],
  handler: (_request, params) => new JsonResponse(params),
});
const typedBody = endpoint({
  params: { item: p.Json(z.object({ at: z.date(), amount: z.number(), text: z.string() })) },
  returns: [p.ResponseSpec({ model: z.object({ at: z.date(), amount: z.number(), text: z.string() }) })],
  handler: (_request, { item }) => new JsonResponse(item),
});
const noContent = endpoint({ returns: HttpResponse, handler: () => new HttpResponse(null, { status: 204 }) });
const notModified = endpoint({
  returns: HttpResponse,
  handler: () => new HttpResponse(null, { status: 304, headers: { etag: '"v1"' } }),
});
const moved = endpoint({
  returns: HttpResponse,
  handler: () => new HttpResponse(null, { status: 307, headers: { location: "/items/1?q=%C3%A9" } }),
});
const boom = endpoint({
  returns: JsonResponse,
  handler: () => {
    throw new Error("the handler failed");
  },
});
const streamed = endpoint({
  returns: HttpResponse,
  handler: () => new HttpResponse(Readable.from(["chunk 1, ", "chünk 2"]), {}, "text/plain; charset=utf-8"),
});
const events = endpoint({
  returns: [
    p.ResponseSpec({ model: z.object({ n: z.int(), text: z.string() }), content_type: "text/event-stream" }),
  ],
  handler: () =>
    new EventStreamResponse(
      (async function* () {
        yield { data: { n: 1, text: "one" } };
        yield { event: "tick", id: "2", data: { n: 2, text: "twö\nlines" } };
        yield { data: { n: 3, text: "✓" } };
      })(),
    ),
});
const twoCookies = endpoint({
  returns: PlainTextResponse,
  handler: () =>
    new PlainTextResponse("ok")
      .setCookie("a", "1")
      .setCookie("b", "two words", { httpOnly: true, path: "/" }),
});
// A string body (under or over the Node adapter's encoded size), or bytes, with a Latin-1 header.
const unicode = endpoint({
  params: { bytes: p.Query(z.enum(["no", "1", "long"]), { default: "no" }) },
  returns: HttpResponse,
  handler: (_request, { bytes }) => {
    const text = bytes === "long" ? "héllo wörld ✓ 😀 ".repeat(1000) : "héllo wörld ✓ 😀";
    const init = { headers: { "x-latin": "café" } };
    return bytes === "1"
      ? new HttpResponse(Buffer.from(text), init, "text/plain; charset=utf-8")
      : new PlainTextResponse(text, init);
  },
});
// Answers at the edges of what a writer does: a body where the status allows none, bodies past the
// Node adapter's encoded size, a stream or an event stream that fails part-way, repeated headers.
const odd = endpoint({
  params: { kind: p.Path(z.string()) },
  returns: HttpResponse,
  handler: (_request, { kind }) => {
    switch (kind) {
      case "204-body":
        return new HttpResponse("x", { status: 204 });
      case "304-body":
        return new HttpResponse("x", { status: 304 });
      case "big":
        return new PlainTextResponse("é".repeat(9000));
      case "huge":
        return new PlainTextResponse("x".repeat(70_000));
      case "bytes":
        return new HttpResponse(new Uint8Array([0, 255, 10]), { status: 418 }, "application/octet-stream");
      case "repeated":
        return new PlainTextResponse("ok", { headers: { "x-dup": ["a", "b"], vary: ["accept", "origin"] } });
      case "stream-error":
        return new HttpResponse(
          Readable.from(
            (async function* () {
              yield "first, ";
              throw new Error("the stream failed");
            })(),
          ),
          {},
          "text/plain",
        );
      case "events-error":
        return new EventStreamResponse(
          (async function* () {
            yield { data: { n: 1 } };
            throw new Error("the events failed");
          })(),
        );
      default:
        return new JsonResponse(null, { status: 201 });
    }
  },
});
const slash = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("slash") });
// A WebSocket whose upgrade reads two headers, one Node's parser would keep once were they not joined.
const headersSocket = websocket({
  params: {
    authorization: p.Header(z.string(), { default: "none" }),
    x_tag: p.Header(z.array(z.string()), { default: [] }),
  },
  inbound: z.object({}),
  outbound: z.object({ authorization: z.string(), x_tag: z.array(z.string()) }),
  handler: async (socket, params) => {
    await socket.send(params);
  },
});

// Middleware that marks every answer, errors too, with a header and a cookie.
const stamp: Middleware = async (request, next) => {
  const response = await next(request);
  response.headers["x-stamp"] = "yes";
  // A header or status changed after the response was built, to what no socket can carry.
  const late = request.headers["x-late"];
  if (late === "crlf") response.headers["x-late"] = "a\r\nb";
  if (late === "euro") response.headers["x-late"] = "€";
  if (late === "spaces") response.headers["x-late"] = "  a  ";
  if (late === "list") response.headers["x-late"] = ["a", "b"];
  if (late === "status") response.status = 600;
  return response.setCookie("seen", "1");
};

const app = createApp({
  settings: { LIMITS: { body_size: 4096 } },
  // /boom and the failing streams are logged as errors: expected here, so not printed.
  logger: { error: () => {} },
  middleware: [stamp],
  routes: [
    path("/raw", { endpoint: raw, methods: ["GET", "POST", "PUT", "PATCH", "DELETE"] }),
    path("/items/{item_id}", { endpoint: getItem }),
    path("/search", { endpoint: search }),
    path("/items", { endpoint: createItem, methods: ["POST"] }),
    path("/sign-up", { endpoint: signUp, methods: ["POST"] }),
    path("/upload", { endpoint: upload, methods: ["POST"] }),
    path("/files/{name}", { endpoint: named }),
    path("/typed/{note}", { endpoint: typed }),
    path("/typed-body", { endpoint: typedBody, methods: ["POST"] }),
    path("/empty", { endpoint: noContent, methods: ["GET", "DELETE"] }),
    path("/cached", { endpoint: notModified }),
    path("/moved", { endpoint: moved }),
    path("/boom", { endpoint: boom }),
    path("/streamed", { endpoint: streamed }),
    path("/events", { endpoint: events }),
    path("/cookies", { endpoint: twoCookies }),
    path("/unicode", { endpoint: unicode }),
    path("/slash/", { endpoint: slash }),
    path("/odd/{kind}", { endpoint: odd }),
    path("/ws/headers", { websocket: headersSocket }),
  ],
});

// What a user observes of an answer, but what the socket adds or what names the moment: `date`,
// the hop-by-hop `connection` and `keep-alive` (RFC 9110 §7.6.1, set by the transport, not the app),
// and `x-request-id`, new for every request.
const SOCKET_HEADERS = new Set(["date", "connection", "keep-alive", "x-request-id"]);

type Seen =
  | { threw: string }
  | {
      status: number;
      headers: [string, string][];
      cookies: string[];
      body: string;
      events?: unknown[];
    };

async function seen(send: () => Promise<TestResponse>): Promise<Seen> {
  let response: TestResponse;
  try {
    response = await send();
  } catch (error) {
    return { threw: `${(error as Error).name}: ${(error as Error).message}` };
  }
  const headers = [...response.headers].filter(([name]) => !SOCKET_HEADERS.has(name));
  const answer: Seen = {
    status: response.status,
    headers,
    cookies: response.headers.getSetCookie(),
    // A multipart body's boundary is new for every request: the same body reads the same.
    body: response.body.toString("latin1").replace(/unruffled-test-[0-9a-f]{24}/g, "unruffled-test-BOUNDARY"),
  };
  if (response.headers.get("content-type")?.startsWith("text/event-stream")) {
    try {
      const received: unknown[] = [];
      for await (const event of response.events()) received.push(event);
      answer.events = received;
    } catch (error) {
      answer.events = [`${(error as Error).name}: ${(error as Error).message}`];
    }
  }
  return answer;
}

// One server for the file: the app on Node, and a client for each side.
let server: RunningServer;
let local: TestClient;
let remote: TestClient;
beforeAll(async () => {
  server = await startServer(app);
  local = testClient(app);
  remote = testClient(app, { baseUrl: server.url });
});
afterAll(() => server.close());

// The request parts a property draws from: the app's paths as a user may write them, with odd
// encodings, dot segments and trailing slashes; query keys repeated, with `+`, `%20` and empty values.
const pathArb = fc.constantFrom(
  "/raw",
  "/raw/",
  "/raw?x=1&x=2&y=&z",
  "/raw?a+b=c+d&e%20f=%20",
  "/items/1",
  "/items/%31",
  "/items/01",
  "/items/1/",
  "/items/x",
  "/items/./1",
  "/items/../raw",
  "//items/1",
  "/search?status=active&tag=a&tag=b",
  "/search",
  "/items",
  "/sign-up",
  "/upload",
  "/files/a%20b",
  "/files/a+b",
  "/files/%E2%9C%93",
  "/files/%2F",
  "/files/%zz",
  "/files/caf%C3%A9",
  "/empty",
  "/cached",
  "/moved",
  "/boom",
  "/streamed",
  "/events",
  "/cookies",
  "/unicode",
  "/slash",
  "/slash/",
  "/nothing",
  "/files/café",
  "/files/a b",
  "/files/✓",
  "/raw#frag",
  "/raw?q=a#frag",
  "/raw?%zz=%",
  "/items/1?tags=a&tags=&tags=%2B&q=+a%20b+",
  "/odd/204-body",
  "/odd/304-body",
  "/odd/big",
  "/odd/huge",
  "/odd/bytes",
  "/odd/repeated",
  "/odd/stream-error",
  "/odd/events-error",
  "/odd/null",
);
// The methods each path answers, so that most requests reach a handler rather than a 405.
const POSTED = new Set(["/items", "/sign-up", "/upload"]);
const methodsOf = (target: string): string[] =>
  target.startsWith("/raw")
    ? ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]
    : POSTED.has(target)
      ? ["POST"]
      : ["GET", "HEAD"];
const methodArb = fc.oneof(
  {
    weight: 20,
    arbitrary: fc.constantFrom(
      "GET",
      "HEAD",
      "POST",
      "PUT",
      "PATCH",
      "DELETE",
      "OPTIONS",
      "get",
      "Post",
      "TRACE",
      "PROPFIND",
    ),
  },
  { weight: 1, arbitrary: fc.constant("BAD METHOD") },
);
const textArb = fc.oneof(
  fc.constantFrom("", " ", "+", "%20", "a b", "é", "✓", "😀", "a=b&c", ";", ",", '"q"', "\t"),
  fc.string({ maxLength: 8 }),
);
const queryArb = fc.dictionary(
  fc.constantFrom("tags", "q", "flag", "status", "tag", "a b", "é", "x"),
  fc.oneof(textArb, fc.array(textArb, { maxLength: 3 }), fc.boolean(), fc.integer()),
  { maxKeys: 4 },
);
// Header values a socket can carry (visible ASCII, tab, obs-text), with spaces around them; now and
// then a name or value it cannot carry, which both clients refuse.
const headerValueArb = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.constantFrom("", " a ", "a\tb", "café", "x,y", "gzip", '"v1"', "Bearer t", "text/plain"),
  },
  {
    weight: 8,
    arbitrary: fc.string({ unit: fc.constantFrom(..." abcXYZ019-_;,=\t\u00e9".split("")), maxLength: 10 }),
  },
  { weight: 1, arbitrary: fc.constantFrom("€", "a\r\nb", "\u0000") },
);
const headerNameArb = fc.oneof(
  {
    weight: 16,
    arbitrary: fc.constantFrom(
      "X-Mode",
      "x-MODE",
      "X-Custom",
      "accept",
      "Accept-Language",
      "If-None-Match",
      "authorization",
      "Cookie",
      "Host",
      "Content-Type",
      "User-Agent",
      "Set-Cookie",
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom("bad name", "x-é") },
);
const lateArb = fc.oneof(
  { weight: 8, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constantFrom("crlf", "euro", "spaces", "list", "status") },
);
// Now and then a header sent more than once (a list: one line a value), or not at all (an empty list).
const headersArb = fc.dictionary(
  headerNameArb,
  fc.oneof({ weight: 4, arbitrary: headerValueArb }, fc.array(headerValueArb, { maxLength: 3 })),
  { maxKeys: 3 },
);
const cookiesArb = fc.dictionary(fc.constantFrom("session", "theme", "seen", "a"), textArb, { maxKeys: 2 });
const bodyArb = fc.oneof(
  fc.constant({}),
  fc.record({ json: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ json: fc.record({ id: fc.integer(), title: textArb }) }),
  fc.record({
    form: fc.dictionary(
      fc.constantFrom("name", "tags", "x"),
      fc.oneof(textArb, fc.array(textArb, { maxLength: 2 })),
      { maxKeys: 2 },
    ),
  }),
  fc.record({
    body: fc.oneof(textArb, fc.uint8Array({ maxLength: 16 })),
    headers: fc.constant({ "content-type": "application/octet-stream" }),
  }),
  fc.record({
    form: fc.record({ title: textArb }),
    files: fc.record({
      doc: fc.record({ filename: fc.constantFrom("a.txt", "ü.bin", 'q"uote.txt'), content: textArb }),
    }),
  }),
);

// WIRE_RUNS=n runs each property n times (100 by default); WIRE_STATS=file lists what each request
// got over the socket (a status, or the error), to see the properties' spread.
function tally(answer: Seen): void {
  if (process.env.WIRE_STATS === undefined) return;
  const outcome =
    "threw" in answer
      ? answer.threw.slice(0, 70)
      : `${answer.status} ${answer.status === 422 ? answer.body.slice(0, 160) : ""}`;
  appendFileSync(process.env.WIRE_STATS, `${outcome}\n`);
}
// A generous bound for a busy machine: a property is 200 requests or more, not a measure of speed.
const PROPERTY_TIMEOUT_MS = 180_000;
const runs = { numRuns: Number(process.env.WIRE_RUNS ?? 100) };

describe("the test client answers as the socket does", () => {
  it(
    "gives any request the same status, headers, body and events in process and over a socket",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          pathArb.chain((target) =>
            fc.tuple(
              fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...methodsOf(target)) }, methodArb),
              fc.constant(target),
            ),
          ),
          queryArb,
          headersArb,
          cookiesArb,
          bodyArb,
          lateArb,
          async ([method, target], query, headers, cookies, body, late) => {
            const options = {
              ...body,
              query,
              cookies,
              headers: {
                ...headers,
                ...(body as { headers?: object }).headers,
                ...(late === null ? {} : { "x-late": late }),
              },
            };
            const overSocket = await seen(() => remote.request(method, target, options));
            const inProcess = await seen(() => local.request(method, target, options));
            expect(inProcess).toEqual(overSocket);
            tally(overSocket);
          },
        ),
        runs,
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});

// Values from the schemas' domains, with their edges: empty and non-ASCII strings, dates far from
// now, and numbers JSON and query strings spell oddly (-0, 1e21, 5e-324).
const stringArb = fc.oneof(
  fc.constantFrom("", " ", "+", "%20", "a&b=c", "é", "✓ 😀", "\u0085", "null"),
  fc.string({ unit: "grapheme", maxLength: 8 }),
);
const numberArb = fc.oneof(
  fc.constantFrom(0, -0, 1e21, -1e21, 5e-324, 0.1, Number.MAX_SAFE_INTEGER + 2, 1.7976931348623157e308),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const dateArb = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      new Date(0),
      new Date(-1),
      new Date("0000-01-01T00:00:00Z"),
      new Date("9999-12-31T23:59:59.999Z"),
    ),
  },
  {
    weight: 6,
    arbitrary: fc.date({
      noInvalidDate: true,
      min: new Date("0000-01-01T00:00:00Z"),
      max: new Date("9999-12-31T23:59:59.999Z"),
    }),
  },
  // Beyond RFC 3339's four-digit years: both sides answer 422 (see the notes for the lead).
  { weight: 1, arbitrary: fc.date({ noInvalidDate: true }) },
);

describe("typed calls answer as the socket does", () => {
  it(
    "gives a call with values from each schema's domain the same answer in process and over a socket",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            when: fc.oneof(
              dateArb,
              dateArb.map((date) => date.toISOString()),
            ),
            amount: numberArb,
            label: fc.oneof(
              {
                weight: 4,
                arbitrary: fc.string({
                  unit: fc.constantFrom(..."aZ9 -;\t\u00e9\u00ff".split("")),
                  maxLength: 8,
                }),
              },
              stringArb,
            ),
            theme: stringArb,
            note: stringArb,
          }),
          fc.record({ at: dateArb, amount: numberArb, text: stringArb }),
          async (params, item) => {
            const overSocket = await seen(() => remote.call(typed, params));
            expect(await seen(() => local.call(typed, params))).toEqual(overSocket);
            tally(overSocket);
            expect(await seen(() => local.call(typedBody, { item }))).toEqual(
              await seen(() => remote.call(typedBody, { item })),
            );
          },
        ),
        runs,
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});

// Each difference the property found, pinned by the answer both clients now give.
describe("what the property found", () => {
  // RFC 9110 §5.5: a field value excludes the whitespace around it, and Node's parser drops it.
  it("a header value reaches the app without the spaces and tabs around it", async () => {
    for (const client of [remote, local]) {
      const response = await client.get("/raw", { headers: { "X-Mode": " \t a b\t ", "x-empty": "  " } });
      expect(response.json()).toMatchObject({ headers: { "x-mode": "a b", "x-empty": "" } });
    }
  });

  // RFC 9110 §8.6: a client sends Content-Length: 0 with a POST, PUT or PATCH that has no content, as
  // Node's client and fetch do; a GET, HEAD, DELETE or OPTIONS without content sends none.
  it("a POST, PUT or PATCH without a body says Content-Length: 0; other methods send no length", async () => {
    for (const client of [remote, local]) {
      for (const method of ["POST", "PUT", "PATCH"]) {
        const response = await client.request(method, "/raw");
        expect(response.json()).toMatchObject({ headers: { "content-length": "0" } });
      }
      for (const method of ["GET", "DELETE"]) {
        const { host: _host, ...headers } = (await client.request(method, "/raw")).json<{
          headers: object & { host: string };
        }>().headers;
        expect(headers).toEqual({});
      }
    }
  });

  // Node joins the head to a string body and writes both as UTF-8 when the answer has a
  // Content-Length, and the head alone as Latin-1 otherwise: one header went out as two spellings.
  it("a header value in Latin-1 goes out as one byte per character, whatever the body", async () => {
    for (const target of ["/unicode", "/unicode?bytes=1", "/unicode?bytes=long"]) {
      const exchange = await openRaw(server.port);
      await exchange.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      const answer = await exchange.closed(10_000);
      expect(answer.split("\r\n").find((line) => line.startsWith("x-latin"))).toBe("x-latin: caf\xe9");
      expect((await remote.get(target)).headers.get("x-latin")).toBe("café");
      expect((await local.get(target)).headers.get("x-latin")).toBe("café");
    }
  });

  // An answer to HEAD has no body, and no events: over a socket the stream ends at once.
  it("an event stream's answer to HEAD has no events, rather than being no event stream", async () => {
    for (const client of [remote, local]) {
      const response = await client.head("/events");
      const received: unknown[] = [];
      for await (const event of response.events()) received.push(event);
      expect([response.status, response.headers.get("content-type"), response.text, received]).toEqual([
        200,
        "text/event-stream",
        "",
        [],
      ]);
    }
  });

  // What a socket cannot carry is refused before anything is sent, with the error Node's client gives.
  it("a header name or value a socket cannot carry is refused with Node's error, in process too", async () => {
    for (const client of [remote, local]) {
      await expect(client.get("/raw", { headers: { "x-é": "1" } })).rejects.toMatchObject({
        name: "TypeError",
        code: "ERR_INVALID_HTTP_TOKEN",
        message: 'Header name must be a valid HTTP token ["x-é"]',
      });
      for (const value of ["a\r\nb", "€", "\u0000"]) {
        await expect(client.get("/raw", { headers: { "X-Mode": value } })).rejects.toMatchObject({
          name: "TypeError",
          code: "ERR_INVALID_CHAR",
          message: 'Invalid character in header content ["x-mode"]',
        });
      }
    }
  });

  // Half a surrogate pair has no UTF-8 form: sent, it would arrive as U+FFFD (query, form) or fail
  // inside encodeURIComponent (cookie). It is refused, named with its place, as a path value is.
  it("a query, form or cookie value holding a lone UTF-16 surrogate is refused before it is sent, naming it", async () => {
    const lone = "holds a lone UTF-16 surrogate (\\udc00, character 2), which has no UTF-8 form, so";
    const doc = { filename: "a.txt", content: "a" };
    for (const client of [remote, local]) {
      const calls: [() => Promise<unknown>, string][] = [
        [
          () => client.get("/items/1", { query: { tags: ["ok", "a\uDC00"] } }),
          `the query parameter tags ${lone} no URL can carry it`,
        ],
        [
          () => client.get("/items/1", { cookies: { session: "a\uDC00" } }),
          `the cookie parameter session ${lone} no header can carry it`,
        ],
        [
          () => client.post("/sign-up", { form: { name: "a\uDC00" } }),
          `the form parameter name ${lone} no form can carry it`,
        ],
        [
          () => client.post("/upload", { form: { title: "a\uDC00" }, files: { doc } }),
          `the form parameter title ${lone} no form can carry it`,
        ],
      ];
      for (const [call, message] of calls) {
        await expect(call()).rejects.toMatchObject({ name: "TypeError", message });
      }
    }
  });

  // RFC 9112 §3.2: a request target is visible ASCII. Node's client refuses a space or a character
  // beyond U+00FF, and sends U+0080–U+00FF as bytes that Node's server answers with a 400.
  it("a path with a space, a control or a non-ASCII character is refused before it is sent", async () => {
    for (const client of [remote, local]) {
      for (const target of ["/files/a b", "/files/café", "/files/✓", "/files/a\x7fb", "/files/a\tb"]) {
        await expect(client.get(target)).rejects.toThrow(
          new TypeError(
            `A test request path is sent as written, so it holds visible ASCII only: percent-encode the rest (encodeURIComponent), got ${JSON.stringify(target)}.`,
          ),
        );
      }
    }
  });

  // RFC 9110 §9.1: a method is a token; Node's client refuses another before sending anything.
  it("a method that is no HTTP token is refused before it is sent", async () => {
    for (const client of [remote, local]) {
      for (const method of ["BAD METHOD", "", "GET\r\n", "GÉT"]) {
        await expect(client.request(method, "/raw")).rejects.toThrow(
          new TypeError(
            `A test request method is an HTTP token (letters, digits and !#$%&'*+-.^_\`|~), got ${JSON.stringify(method.toUpperCase())}.`,
          ),
        );
      }
    }
  });

  // Node's client sends the Host a test gives, else the server's, after the other headers.
  it("a Host the test gives reaches the app; the client's own comes after the other headers", async () => {
    for (const client of [remote, local]) {
      const given = await client.get("/raw", { headers: { "X-Mode": "a", Host: "shop.example" } });
      expect(given.json<{ headers: Record<string, string> }>().headers).toEqual({
        "x-mode": "a",
        host: "shop.example",
      });
      const own = await client.post("/raw", { json: {}, headers: { "X-Mode": "a" } });
      expect(Object.keys(own.json<{ headers: Record<string, string> }>().headers)).toEqual([
        "x-mode",
        "content-type",
        "content-length",
        "host",
      ]);
    }
  });

  // RFC 9110 §7.2: an empty Host is a valid one (a target without an authority); Node's client would
  // put its own in place of an empty value, so the app over HTTP saw the server's address.
  it("an empty Host the test gives reaches the app empty", async () => {
    for (const client of [remote, local]) {
      const given = await client.get("/raw", { headers: { Host: "" } });
      expect(given.json<{ headers: Record<string, string> }>().headers).toEqual({ host: "" });
    }
  });

  // RFC 9110 §6.4.1, §8.6: a 204 or 304 ends after its head; Node sends no body, and no length is
  // made up for the body it drops.
  it("a 204 or 304 answer has no body and no computed Content-Length, even when the app gave one", async () => {
    for (const client of [remote, local]) {
      for (const [target, status] of [
        ["/odd/204-body", 204],
        ["/odd/304-body", 304],
      ] as const) {
        const response = await client.get(target);
        expect([response.status, response.text, response.headers.get("content-length")]).toEqual([
          status,
          "",
          null,
        ]);
      }
    }
  });

  // A body that fails part-way reaches a client on a socket as a connection cut short; the app's
  // error is in the server's log, not in the answer.
  it("a body or an event stream that fails part-way rejects with the same error on both sides", async () => {
    const cut =
      "The answer's body was cut off: the server closed the connection before its end (status 200).";
    for (const client of [remote, local]) {
      await expect(client.get("/odd/stream-error")).rejects.toThrow(new Error(cut));
      const events = (await client.get("/odd/events-error")).events();
      expect((await events.next()).value).toEqual({ data: { n: 1 } });
      await expect(events.next()).rejects.toThrow(new Error(cut));
    }
  });

  // A header sent more than once (RFC 9110 §5.3) reaches the app as Node's server, listening as
  // listen() has it (joinDuplicateHeaders), hands it over: one value, the lines joined by ", "; a
  // Cookie's by "; "; Set-Cookie always a list. An empty list sends no line.
  it("a header given as a list goes out as one line a value and reaches the app as Node's server joins them", async () => {
    for (const client of [remote, local]) {
      const response = await client.get("/raw", {
        headers: {
          "X-Tag": ["a", " b "],
          accept: ["text/html", "application/json"],
          "content-type": ["text/plain", "text/html"],
          Authorization: ["Basic x", "Bearer y"],
          "user-agent": ["one"],
          cookie: ["a=1", "b=2"],
          "set-cookie": "s=1",
          "x-none": [],
        },
        cookies: { c: "3" },
      });
      expect(response.json<{ headers: object }>().headers).toEqual({
        "x-tag": "a, b",
        accept: "text/html, application/json",
        "content-type": "text/plain, text/html",
        authorization: "Basic x, Bearer y",
        "user-agent": "one",
        cookie: "a=1; b=2; c=3",
        "set-cookie": ["s=1"],
        host: "own",
      });
      const listed = await client.get("/items/1", { headers: { "x-mode": ["a", "b"] } });
      expect(listed.json()).toMatchObject({ x_mode: "a, b" });
    }
  });

  it("a request's own list replaces the client's default header, and an empty one leaves it out", async () => {
    const headers = { "x-tag": "default", accept: "text/html", "x-mode": ["m1", "m2"] };
    for (const client of [testClient(app, { headers, baseUrl: server.url }), testClient(app, { headers })]) {
      const response = await client.get("/raw", { headers: { "X-Tag": [], accept: ["a", "b"] } });
      expect(response.json<{ headers: object }>().headers).toEqual({
        accept: "a, b",
        "x-mode": "m1, m2",
        host: "own",
      });
    }
  });

  it("a list header of a typed call and a WebSocket reads every line, in process as over a socket", async () => {
    for (const client of [remote, local]) {
      const socket = await client.websocket(
        headersSocket,
        {},
        {
          headers: { authorization: ["Bearer a", "Bearer b"], "x-tag": ["a", "b, c"] },
        },
      );
      expect(await socket.receive()).toEqual({ authorization: "Bearer a, Bearer b", x_tag: ["a", "b", "c"] });
      await socket.close();
    }
  });

  // A request has one Host (Node's client takes no list for it), and one length: two Content-Length
  // or Transfer-Encoding lines are what Node's parser refuses (400), a smuggling attempt's shape.
  it("a Host, Content-Length or Transfer-Encoding given as a list of two is refused before it is sent", async () => {
    for (const client of [remote, local]) {
      for (const name of ["Host", "content-length", "Transfer-Encoding"]) {
        await expect(client.get("/raw", { headers: { [name]: ["1", "1"] } })).rejects.toThrow(
          new TypeError(
            `A test request sends one ${name.toLowerCase()} line, so its value is one string, got ["1","1"].`,
          ),
        );
      }
      const one = await client.get("/raw", { headers: { Host: ["shop.example"] } });
      expect(one.json()).toMatchObject({ headers: { host: "shop.example" } });
    }
  });

  // Headers are an object of names: a list of pairs (httpx's shape) would read as names "0", "1".
  it("headers given as a list of pairs, a Headers object or values that are no strings are refused with the shape to use", async () => {
    for (const client of [remote, local]) {
      for (const headers of [[["x-tag", "a"]], new Headers({ "x-tag": "a" })]) {
        await expect(client.get("/raw", { headers: headers as never })).rejects.toThrow(
          new TypeError(
            'A test request\'s headers are an object of names, a repeated one with a list of values: { "x-tag": ["a", "b"] }.',
          ),
        );
      }
      for (const value of [5, ["a", 5]]) {
        await expect(client.get("/raw", { headers: { "X-N": value as never } })).rejects.toThrow(
          new TypeError(
            `A test request's header "X-N" is a string or a list of strings, got ${JSON.stringify(value)}.`,
          ),
        );
      }
    }
  });
});
