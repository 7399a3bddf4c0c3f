import { createApp } from "unruffled";
import { DEFAULT_BODY_LIMITS, HttpRequest, JsonResponse, WebBodySource } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  absoluteFormAuthority,
  authorityOf,
  isValidHost,
  originFormOf,
  queryOf,
  targetOf,
} from "../../src/http/request-target.ts";
import { bodyOf, openRaw, statusOf } from "../support/raw-http.ts";
import { serveEndpoint } from "../support/serve.ts";

/** A web request's URL that counts how often it is read (Bun makes a new string per read). */
class CountedUrl {
  reads = 0;
  private readonly absolute: string;

  constructor(absolute: string) {
    this.absolute = absolute;
  }

  get url(): string {
    this.reads += 1;
    return this.absolute;
  }
}

const requestWith = (url: string | CountedUrl) =>
  new HttpRequest({
    method: "GET",
    url,
    headers: {},
    socket: undefined,
    body: new WebBodySource(null, null),
    limits: DEFAULT_BODY_LIMITS,
  });

describe("the request target", () => {
  it("is read from a web request's URL only when asked, and once", () => {
    const source = new CountedUrl("http://localhost:8000/students/7?tag=a&tag=b");
    const request = requestWith(source);
    expect(source.reads).toBe(0);
    expect([request.url, request.path, request.queryString]).toEqual([
      "/students/7?tag=a&tag=b",
      "/students/7",
      "tag=a&tag=b",
    ]);
    expect({ ...request.query }).toEqual({ tag: ["a", "b"] });
    expect(source.reads).toBe(1);
  });

  it("is the target as sent when given as a string", () => {
    const request = requestWith("/hello?");
    expect([request.url, request.path, request.queryString]).toEqual(["/hello?", "/hello", ""]);
  });

  it("is / for a URL without a path", () => {
    expect(requestWith(new CountedUrl("http://localhost:8000")).path).toBe("/");
  });

  it("gives the query string of a web request's URL without its target, then the same target and path", () => {
    const source = new CountedUrl("http://localhost:8000/students/7?tag=a?b&x=%20");
    const request = requestWith(source);
    expect(request.queryString).toBe("tag=a?b&x=%20");
    expect([request.url, request.path, request.queryString]).toEqual([
      "/students/7?tag=a?b&x=%20",
      "/students/7",
      "tag=a?b&x=%20",
    ]);
    expect(source.reads).toBe(1);
  });

  it.each([
    "http://localhost:8000/a/b?c=1&d",
    "http://localhost:8000/a?",
    "http://localhost:8000/a",
    "http://localhost:8000",
    "http://localhost:8000/?x=/y?z",
    "/relative?q=1",
  ])("is, for %s, the query string of its target", (url) => {
    const target = targetOf(url);
    const queryStart = target.indexOf("?");
    expect(queryOf(url)).toBe(queryStart < 0 ? "" : target.slice(queryStart + 1));
  });
});

describe("a target in absolute form (RFC 9112 §3.2.2: a server must accept it)", () => {
  it("is read as its path and query, as the origin form of the same request", () => {
    const request = requestWith("http://example.com:8080/students/7?tag=a&tag=b");
    expect([request.url, request.path, request.queryString]).toEqual([
      "/students/7?tag=a&tag=b",
      "/students/7",
      "tag=a&tag=b",
    ]);
  });

  it("gives / for an authority without a path, keeping its query", () => {
    expect([originFormOf("https://example.com"), originFormOf("HTTP://example.com?page=2")]).toEqual([
      "/",
      "/?page=2",
    ]);
  });

  it("names its authority, which replaces Host; a target of any other form names none", () => {
    expect(
      [
        "http://example.com:8080/a?b",
        "HTTPS://example.com",
        "http://example.com?page=2",
        "http://[::1]:80#x",
      ].map(authorityOf),
    ).toEqual(["example.com:8080", "example.com", "example.com", "[::1]:80"]);
    expect(["/a?b", "*", "example.com:443", "ftp://example.com/x"].map(authorityOf)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("leaves the origin, asterisk and authority forms, and other schemes' URIs, as sent", () => {
    expect(["/a//b?c", "*", "example.com:443", "a/b", "ftp://example.com/x"].map(originFormOf)).toEqual([
      "/a//b?c",
      "*",
      "example.com:443",
      "a/b",
      "ftp://example.com/x",
    ]);
  });

  it("routes a request sent in absolute form over HTTP as its origin form", async () => {
    const server = await serveEndpoint(
      "/items/{id}",
      endpoint({
        params: { id: p.Path(z.int()), page: p.Query(z.int()) },
        returns: JsonResponse,
        handler: (request, { id, page }) => new JsonResponse({ id, page, path: request.path }),
      }),
    );
    const exchange = await openRaw(server.port);
    await exchange.write(
      `GET http://127.0.0.1:${server.port}/items/7?page=2 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    );
    const raw = await exchange.closed();
    expect([statusOf(raw), JSON.parse(bodyOf(raw))]).toEqual([200, { id: 7, page: 2, path: "/items/7" }]);
  });
});

describe("a web request's URL made from a target in absolute form (Deno, @hono/node-server)", () => {
  it("names the target's authority where it is not the Host header's", () => {
    expect(absoluteFormAuthority("http://h.example:81/x", "127.0.0.1")).toBe("h.example:81");
    expect(absoluteFormAuthority("https://[::1]/x?y", "127.0.0.1:8000")).toBe("[::1]");
  });

  it("names none where the URL was made from Host, as the runtime normalised it, or without a Host", () => {
    expect(
      [
        ["http://a.example/x", "a.example"],
        ["http://a.example/x", "A.Example:80"],
        ["https://a.example/x", "a.example:443"],
        ["http://localhost:8000/x", undefined],
        ["/x", undefined],
      ].map(([url, host]) => absoluteFormAuthority(url!, host)),
    ).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});

describe("a Host header (RFC 9112 §3.2: one host[:port] of RFC 3986)", () => {
  it("is valid as a name, an IPv4 address or an IP literal, with a port up to 65535", () => {
    const valid = [
      "api.example.com",
      "127.0.0.1:8000",
      "[::1]",
      "[2001:db8::7]:443",
      "[v1.fe80::a+en1]",
      "xn--bcher-kva.example:65535",
      // RFC 3986 allows these in a name: sub-delimiters, percent-encoding, an empty port, nothing at all.
      "a,b",
      "a%41b",
      "a:",
      "",
    ];
    expect(valid.filter((host) => !isValidHost(host))).toEqual([]);
  });

  it("is invalid as two lines joined, or with a space, a path, userinfo, a bad port or a bad literal", () => {
    const invalid = [
      "127.0.0.1, evil.example",
      ", b",
      "a b",
      "a\tb",
      "a/b",
      "u@a",
      "a:99999",
      "a:x",
      "a:1:2",
      "[:::::]",
      "[::1",
      "::1",
      "a%4",
      "b\u00fc",
      "a?b",
      "a#b",
    ];
    expect(invalid.filter((host) => isValidHost(host))).toEqual([]);
  });
});

describe("a request whose Host cannot be served", () => {
  const whoAmI = endpoint({
    returns: JsonResponse,
    handler: (request) => new JsonResponse({ origin: request.client.origin ?? null }),
  });
  const routes = [path("/who", { endpoint: whoAmI })];

  it("is refused with 400 before routing, the value quoted, in the app's error format", async () => {
    const client = testClient(createApp({ routes }));
    const refused = await client.get("/who", { headers: { host: "a b" } });
    expect([refused.status, await refused.json()]).toEqual([400, { detail: 'Invalid Host header: "a b"' }]);
    const unrouted = await client.get("/nowhere", { headers: { host: "u@evil.example" } });
    expect([unrouted.status, await unrouted.json()]).toEqual([
      400,
      { detail: 'Invalid Host header: "u@evil.example"' },
    ]);
    const problems = testClient(createApp({ routes, settings: { ERRORS: { format: "problem" } } }));
    const problem = await problems.get("/who", { headers: { host: "a:99999", "x-request-id": "req-7" } });
    expect([problem.status, problem.headers.get("content-type"), await problem.json()]).toEqual([
      400,
      "application/problem+json",
      {
        type: "about:blank",
        title: "Bad Request",
        status: 400,
        detail: 'Invalid Host header: "a:99999"',
        instance: "req-7",
      },
    ]);
  });

  it("is quoted at most 100 characters long, escaped", async () => {
    const client = testClient(createApp({ routes }));
    const long = await client.get("/who", { headers: { host: `"${"x".repeat(300)}` } });
    expect([long.status, await long.json()]).toEqual([
      400,
      { detail: `Invalid Host header: "\\"${"x".repeat(99)}" (first 100 of 301 characters)` },
    ]);
  });

  it("is served as before when its Host is valid, or when it has none (HTTP/1.0, a Request made in process)", async () => {
    const app = createApp({ routes });
    const named = await testClient(app).get("/who", { headers: { host: "api.example.com:8443" } });
    expect(await named.json()).toEqual({ origin: "http://api.example.com:8443" });
    const without = await app.handle(
      new HttpRequest({
        method: "GET",
        url: "/who",
        headers: {},
        socket: undefined,
        body: new WebBodySource(null, null),
        limits: DEFAULT_BODY_LIMITS,
      }),
    );
    expect([without.status, without.body]).toEqual([200, '{"origin":null}']);
  });
});
