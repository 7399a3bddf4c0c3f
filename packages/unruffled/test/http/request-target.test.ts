import { DEFAULT_BODY_LIMITS, HttpRequest, WebBodySource } from "unruffled/http";
import { describe, expect, it } from "vitest";
import { queryOf, targetOf } from "../../src/http/request-target.ts";

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
