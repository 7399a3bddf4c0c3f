import { DEFAULT_BODY_LIMITS, HttpRequest, JsonResponse, WebBodySource } from "unruffled/http";
import { endpoint, p } from "unruffled/route";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { authorityOf, originFormOf, queryOf, targetOf } from "../../src/http/request-target.ts";
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
