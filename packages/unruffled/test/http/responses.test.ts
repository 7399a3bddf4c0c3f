import { createApp, exceptionHandler } from "unruffled";
import { HttpResponse, JsonResponse, PlainTextResponse, parseCookies, serializeCookie } from "unruffled/http";
import { endpoint, path } from "unruffled/route";
import { startServer, testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { bodyOf, openRaw } from "../support/raw-http.ts";
import { serve } from "../support/serve.ts";

describe("responses", () => {
  it("serialises a JsonResponse with its status and headers", async () => {
    const created = endpoint({
      returns: JsonResponse,
      handler: () =>
        new JsonResponse({ id: 1, name: "Ada" }, { status: 201, headers: { "X-Request-Id": "r1" } }),
    });
    const server = await serve([path("/created", { endpoint: created })]);
    const response = await server.fetch("/created");
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("x-request-id")).toBe("r1");
    expect(await response.text()).toBe('{"id":1,"name":"Ada"}');
  });

  it("sends PlainTextResponse as utf-8 text with the byte length", async () => {
    const text = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("héllo") });
    const server = await serve([path("/text", { endpoint: text })]);
    const response = await server.fetch("/text");
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("content-length")).toBe("6");
    expect(await response.text()).toBe("héllo");
  });

  it("sets and deletes cookies", async () => {
    const login = endpoint({
      returns: JsonResponse,
      handler: () =>
        new JsonResponse({ ok: true })
          .setCookie("session", "a b", { httpOnly: true, path: "/", sameSite: "Lax", maxAge: 3600 })
          .setCookie("theme", "dark")
          .deleteCookie("legacy"),
    });
    const server = await serve([path("/login", { endpoint: login })]);
    const response = await server.fetch("/login");
    expect(response.headers.getSetCookie()).toEqual([
      "session=a%20b; Max-Age=3600; Path=/; HttpOnly; SameSite=Lax",
      "theme=dark",
      "legacy=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
    ]);
  });

  it("sends bytes and streams from a plain HttpResponse", async () => {
    const { Readable } = await import("node:stream");
    const bytes = endpoint({
      returns: HttpResponse,
      handler: () =>
        new HttpResponse(new Uint8Array([1, 2, 3]), {
          headers: { "content-type": "application/octet-stream" },
        }),
    });
    const stream = endpoint({
      returns: HttpResponse,
      handler: () => new HttpResponse(Readable.from(["a", "b", "c"])),
    });
    const server = await serve([path("/bytes", { endpoint: bytes }), path("/stream", { endpoint: stream })]);
    expect(new Uint8Array(await (await server.fetch("/bytes")).arrayBuffer())).toEqual(
      new Uint8Array([1, 2, 3]),
    );
    expect(await (await server.fetch("/stream")).text()).toBe("abc");
  });

  it("sends a stream of strings through app.fetch as over a socket, encoded as UTF-8", async () => {
    const { Readable } = await import("node:stream");
    const strings = endpoint({
      returns: HttpResponse,
      handler: () =>
        new HttpResponse(Readable.from(["Zoë ", "and ", "Ann"]), {}, "text/plain; charset=utf-8"),
    });
    const encoded = endpoint({
      returns: HttpResponse,
      handler: () =>
        new HttpResponse(Readable.from([Buffer.from("Zoë")]).setEncoding("utf8"), {}, "text/plain"),
    });
    const app = createApp({
      routes: [path("/strings", { endpoint: strings }), path("/encoded", { endpoint: encoded })],
    });
    const viaFetch = await app.fetch(new Request("http://localhost/strings"));
    const withEncoding = await app.fetch(new Request("http://localhost/encoded"));
    expect([viaFetch.status, await viaFetch.text(), await withEncoding.text()]).toEqual([
      200,
      "Zoë and Ann",
      "Zoë",
    ]);
  });

  it("say Content-Length: 0 when they have no body, not an empty chunked one; a 204 or 304 says neither", async () => {
    const empty = (status: number) =>
      endpoint({ returns: HttpResponse, handler: () => new HttpResponse(null, { status }) });
    const server = await serve(
      [307, 204, 304].map((status) => path(`/${status}`, { endpoint: empty(status) })),
    );
    const framing = async (status: number) => {
      const response = await server.fetch(`/${status}`, { redirect: "manual" });
      return [response.headers.get("content-length"), response.headers.get("transfer-encoding")];
    };
    expect([await framing(307), await framing(204), await framing(304)]).toEqual([
      ["0", null],
      [null, null],
      [null, null],
    ]);
  });
});

describe("cookies", () => {
  it("parses a Cookie header, decoding values and keeping the first of duplicates", () => {
    expect(parseCookies('a=1; b="quoted"; c=caf%C3%A9; a=2; broken; d=%E0')).toEqual({
      a: "1",
      b: "quoted",
      c: "café",
      d: "%E0",
    });
  });

  it("refuses a cookie name or attribute that would break the header", () => {
    expect(() => serializeCookie("bad name", "x")).toThrow(new TypeError('Invalid cookie name "bad name"'));
    expect(() => serializeCookie("ok", "x", { path: "/; HttpOnly" })).toThrow(
      new TypeError('Invalid cookie path "/; HttpOnly"'),
    );
    expect(() => new JsonResponse({}).setCookie("ok", "x", { domain: "example.com; Secure" })).toThrow(
      new TypeError('Invalid cookie domain "example.com; Secure"'),
    );
    expect(() => new JsonResponse({}).setCookie("ok", "x", { domain: "example.com\r\nX-Evil: 1" })).toThrow(
      new TypeError('Invalid cookie domain "example.com\\r\\nX-Evil: 1"'),
    );
  });

  it("refuses a sameSite other than Strict, Lax or None, and writes those as browsers spell them", () => {
    const fromUser = "Lax; Domain=evil.example" as "Lax";
    expect(() => new JsonResponse({}).setCookie("pref", "1", { sameSite: fromUser })).toThrow(
      new TypeError('Invalid cookie sameSite "Lax; Domain=evil.example": expected "Strict", "Lax" or "None"'),
    );
    expect(() => serializeCookie("pref", "1", { sameSite: "" as "Lax" })).toThrow(
      new TypeError('Invalid cookie sameSite "": expected "Strict", "Lax" or "None"'),
    );
    expect(() => serializeCookie("pref", "1", { sameSite: "__proto__" as "Lax" })).toThrow(
      new TypeError('Invalid cookie sameSite "__proto__": expected "Strict", "Lax" or "None"'),
    );
    expect(serializeCookie("pref", "1", { sameSite: "Strict" })).toBe("pref=1; SameSite=Strict");
    expect(serializeCookie("pref", "1", { sameSite: "none" as "None", secure: true })).toBe(
      "pref=1; Secure; SameSite=None",
    );
    expect(serializeCookie("pref", "1", { sameSite: "LAX" as "Lax" })).toBe("pref=1; SameSite=Lax");
  });
});

describe("headers that could not be written", () => {
  const reflecting = endpoint({
    returns: PlainTextResponse,
    handler: (request) => new PlainTextResponse("ok", { headers: { "x-echo": String(request.query.v) } }),
  });
  const changedLater = endpoint({
    returns: PlainTextResponse,
    handler: (request) => {
      const response = new PlainTextResponse("ok");
      response.headers["x-echo"] = String(request.query.v);
      return response;
    },
  });
  const routes = [path("/reflect", { endpoint: reflecting }), path("/later", { endpoint: changedLater })];
  const errors: unknown[] = [];
  const logger = { error: (details: Record<string, unknown>) => void errors.push(details.err) };

  it("are refused when the response is built, naming the header", () => {
    expect(() => new PlainTextResponse("", { headers: { "x-a": "one\ntwo" } })).toThrow(
      'Invalid character in header content ["x-a"]',
    );
    expect(() => new PlainTextResponse("", { headers: { "bad name": "v" } })).toThrow(
      'Header name must be a valid HTTP token ["bad name"]',
    );
  });

  it("make a 500 over HTTP, and the server goes on answering", async () => {
    const server = await serve(routes, { logger });
    for (const route of ["/reflect", "/later"]) {
      const refused = await server.fetch(`${route}?v=a%0Aset-cookie:%20evil=1`);
      expect(refused.status).toBe(500);
      expect(refused.headers.get("set-cookie")).toBeNull();
      expect(await refused.json()).toEqual({ detail: "Internal Server Error" });
      const fine = await server.fetch(`${route}?v=fine`);
      expect([fine.status, fine.headers.get("x-echo")]).toEqual([200, "fine"]);
    }
    expect(errors.map((error) => (error as { code?: string }).code)).toEqual([
      "ERR_INVALID_CHAR",
      "ERR_INVALID_CHAR",
    ]);
  });

  it("make a whole 500 over HTTP, with its own status line, where the refused answer was a 304, a 204 or a 200", async () => {
    // The header is changed after the response was built, which the constructor's check cannot see.
    const answering = (status: number) =>
      endpoint({
        returns: HttpResponse,
        handler: (request) => {
          const response = new HttpResponse(status === 200 ? "ok" : null, { status });
          response.headers["x-echo"] = String(request.query.v);
          return response;
        },
      });
    const server = await serve(
      [200, 204, 304].map((status) => path(`/${status}`, { endpoint: answering(status) })),
      { logger },
    );
    for (const status of [304, 204, 200]) {
      const exchange = await openRaw(server.port);
      await exchange.write(`GET /${status}?v=a%0Ab HTTP/1.1\r\nHost: x\r\n\r\n`);
      const raw = await exchange.waitFor('{"detail":"Internal Server Error"}');
      expect([raw.slice(0, raw.indexOf("\r\n")), bodyOf(raw)]).toEqual([
        "HTTP/1.1 500 Internal Server Error",
        '{"detail":"Internal Server Error"}',
      ]);
      exchange.socket.destroy();
    }
  });

  it("make a 500 through fetch(Request) too", async () => {
    const app = createApp({ routes, logger });
    const response = await app.fetch(new Request("http://app.test/later?v=a%0Aevil"));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ detail: "Internal Server Error" });
  });

  it("are checked on every answer, names once seen and values each time", async () => {
    const namedLater = endpoint({
      returns: PlainTextResponse,
      handler: (request) => {
        const response = new PlainTextResponse("ok");
        response.headers[String(request.query.n)] = "v";
        return response;
      },
    });
    const seen: unknown[] = [];
    const app = createApp({
      routes: [...routes, path("/name", { endpoint: namedLater })],
      logger: { error: (details: Record<string, unknown>) => void seen.push(details.err) },
    });
    const statuses: number[] = [];
    for (const url of ["/later?v=fine", "/later?v=a%01b", "/name?n=x-good", "/name?n=bad%20name"]) {
      statuses.push((await app.fetch(new Request(`http://app.test${url}`))).status);
    }
    expect(statuses).toEqual([200, 500, 200, 500]);
    expect(seen.map((error) => (error as { code?: string }).code)).toEqual([
      "ERR_INVALID_CHAR",
      "ERR_INVALID_HTTP_TOKEN",
    ]);
  });

  it("are tested again until a value passes: a name's refused first value is refused the next time too", async () => {
    const echoed = endpoint({
      returns: PlainTextResponse,
      handler: (request) => {
        const response = new PlainTextResponse("ok");
        response.headers["x-first-refused"] = String(request.query.v);
        return response;
      },
    });
    const app = createApp({
      routes: [path("/first", { endpoint: echoed })],
      logger: { error: () => undefined },
    });
    const statuses: number[] = [];
    for (const value of ["a%01b", "a%01b", "fine", "fine", "a%01b"]) {
      statuses.push((await app.fetch(new Request(`http://app.test/first?v=${value}`))).status);
    }
    expect(statuses).toEqual([500, 500, 200, 200, 500]);
  });

  it("make a 500 in the test client too, as the server would answer", async () => {
    const app = createApp({ routes, logger: { error: () => undefined } });
    const refused = await testClient(app).get("/later?v=a%0Aevil");
    expect([refused.status, refused.headers.get("x-echo"), refused.json()]).toEqual([
      500,
      null,
      { detail: "Internal Server Error" },
    ]);
    expect(refused.headers.get("x-request-id")).toMatch(/^[\w-]+-\w+$/);
  });
});

describe("statuses no answer may carry", () => {
  it("are refused when the response is built: a final answer is an integer from 200 to 599", () => {
    for (const status of [199, 600, 200.5, Number.NaN]) {
      expect(() => new PlainTextResponse("", { status })).toThrow(
        new RangeError(`A response status must be an integer from 200 to 599, got ${status}`),
      );
    }
    expect([new PlainTextResponse("", { status: 599 }).status, new PlainTextResponse("").status]).toEqual([
      599, 200,
    ]);
  });

  // 103 would reach a client as an informational answer, leaving it waiting for the real one.
  const changedLater = endpoint({
    returns: PlainTextResponse,
    handler: (request) => {
      const response = new PlainTextResponse("ok");
      response.status = Number(request.query.s);
      return response;
    },
  });
  const routes = [path("/status", { endpoint: changedLater })];
  const quiet = { error: () => undefined };

  it("make a 500 over HTTP when set afterwards, and the server goes on answering", async () => {
    const server = await serve(routes, { logger: quiet });
    for (const status of [103, 600]) {
      const refused = await server.fetch(`/status?s=${status}`);
      expect([refused.status, await refused.json()]).toEqual([500, { detail: "Internal Server Error" }]);
    }
    expect((await server.fetch("/status?s=201")).status).toBe(201);
  });

  it("make a 500 through fetch(Request) and the test client too", async () => {
    const app = createApp({ routes, logger: quiet });
    const viaFetch = await app.fetch(new Request("http://app.test/status?s=103"));
    const viaClient = await testClient(app).get("/status?s=103");
    expect([viaFetch.status, viaClient.status, viaClient.json()]).toEqual([
      500,
      500,
      { detail: "Internal Server Error" },
    ]);
  });
});

describe("audit: a response object answers one request", () => {
  it("one shared across requests keeps the first request's x-request-id, as docs/responses.md warns", async () => {
    const shared = new JsonResponse({ status: "up" });
    const health = endpoint({ returns: JsonResponse, handler: () => shared });
    const fresh = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({ status: "up" }) });
    const client = testClient(
      createApp({ routes: [path("/shared", { endpoint: health }), path("/fresh", { endpoint: fresh })] }),
    );
    const ids = [];
    for (const [target, id] of [
      ["/shared", "first"],
      ["/shared", "second"],
      ["/fresh", "third"],
      ["/fresh", "fourth"],
    ] as const) {
      ids.push((await client.get(target, { headers: { "x-request-id": id } })).headers.get("x-request-id"));
    }
    expect(ids).toEqual(["first", "first", "third", "fourth"]);
  });
});

describe("audit: docs/endpoints-and-routes.md, a response refused when built goes to the exception handlers", () => {
  const refused = endpoint({
    returns: PlainTextResponse,
    handler: (request) =>
      request.query.what === "status"
        ? new PlainTextResponse("", { status: 600 })
        : new PlainTextResponse("", { headers: { "x-note": "one\r\nset-cookie: a=1" } }),
  });
  const app = createApp({
    routes: [path("/refused", { endpoint: refused })],
    exceptionHandlers: [
      exceptionHandler(
        RangeError,
        (error) => new JsonResponse({ handled: "RangeError", detail: error.message }, { status: 502 }),
      ),
      exceptionHandler(
        TypeError,
        (error) => new JsonResponse({ handled: "TypeError", detail: error.message }, { status: 503 }),
      ),
    ],
  });

  it("answers a status out of range and a header with a line break through the app's own handlers, over a socket", async () => {
    const server = await startServer(app);
    try {
      const status = await server.fetch("/refused?what=status");
      const header = await server.fetch("/refused?what=header");
      expect([
        [status.status, await status.json()],
        [header.status, header.headers.get("set-cookie"), await header.json()],
      ]).toEqual([
        [
          502,
          { handled: "RangeError", detail: "A response status must be an integer from 200 to 599, got 600" },
        ],
        [503, null, { handled: "TypeError", detail: 'Invalid character in header content ["x-note"]' }],
      ]);
    } finally {
      await server.close();
    }
  });
});
