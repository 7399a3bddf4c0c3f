import { DEFAULT_BODY_LIMITS, HttpRequest, WebBodySource } from "unruffled/http";
import { describe, expect, it } from "vitest";

/** Web headers that count how often they were made into one object. */
function countedHeaders(init: Record<string, string>): Headers & { wholeReads: number } {
  const headers = Object.assign(new Headers(init), { wholeReads: 0 });
  const forEach = headers.forEach.bind(headers);
  Object.defineProperty(headers, "forEach", {
    value: (callback: Parameters<Headers["forEach"]>[0]) => {
      headers.wholeReads += 1;
      forEach(callback);
    },
  });
  return headers;
}

const requestWith = (headers: Headers) =>
  new HttpRequest({
    method: "POST",
    url: "/bind",
    headers,
    socket: undefined,
    body: new WebBodySource(null, null),
    limits: DEFAULT_BODY_LIMITS,
  });

describe("a web request's headers", () => {
  it("are read one by one until request.headers is asked for", () => {
    const headers = countedHeaders({
      "Content-Type": "Application/JSON; charset=utf-8",
      "X-Request-Id": "a-1",
    });
    const request = requestWith(headers);
    expect([request.header("x-request-id"), request.header("x-missing"), request.contentType]).toEqual([
      "a-1",
      undefined,
      "application/json",
    ]);
    expect(headers.wholeReads).toBe(0);
  });

  it("become one object of lower-case names, made once", () => {
    const headers = countedHeaders({ "X-Agent": "probe", Cookie: "s=1" });
    const request = requestWith(headers);
    expect(request.headers).toEqual({ "x-agent": "probe", cookie: "s=1" });
    expect(request.cookies).toEqual({ s: "1" });
    expect(request.header("x-agent")).toBe("probe");
    expect(headers.wholeReads).toBe(1);
  });

  it("are the object itself when an adapter gives one", () => {
    const given = { "x-agent": "probe" };
    const request = new HttpRequest({
      method: "GET",
      url: "/",
      headers: given,
      socket: undefined,
      body: new WebBodySource(null, null),
      limits: DEFAULT_BODY_LIMITS,
    });
    expect(request.headers).toBe(given);
    expect(request.header("x-agent")).toBe("probe");
  });
});
