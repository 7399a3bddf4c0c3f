import { parse as parseQueryString } from "node:querystring";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { WebBodySource } from "../../../src/http/body.ts";
import { DEFAULT_BODY_LIMITS } from "../../../src/http/body-limits.ts";
import { HttpRequest } from "../../../src/http/request.ts";
import { JsonResponse } from "../../../src/http/response.ts";
import { endpoint } from "../../../src/route/declare/endpoint.ts";
import { p } from "../../../src/route/declare/markers.ts";
import { path } from "../../../src/route/declare/path.ts";
import { QueryReader } from "../../../src/route/wire/query-reader.ts";
import { jsonOf, serve } from "../../support/serve.ts";

const NAMES = ["a", "b", "ab", "constructor", "__proto__"];

/** What `request.query` gives for the declared names (a null-prototype object, so no inherited keys). */
function expectedFor(queryString: string): Record<string, unknown> {
  const parsed = parseQueryString(queryString);
  return Object.fromEntries(NAMES.map((name) => [name, parsed[name]]));
}

/** Deterministic strings over pieces that make every kind of pair: empty, key only, "=" inside values. */
function* queryStrings(count: number): Generator<string> {
  const pieces = ["a", "b", "ab", "c", "=", "&", "1", "constructor", "__proto__", "&&", "=="];
  let seed = 7;
  for (let n = 0; n < count; n++) {
    let text = "";
    const length = n % 12;
    for (let i = 0; i < length; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      text += pieces[seed % pieces.length];
    }
    yield text;
  }
}

/** A request whose target carries this query string. */
function requestWithQuery(queryString: string): HttpRequest {
  return new HttpRequest({
    method: "GET",
    url: `/?${queryString}`,
    headers: {},
    socket: undefined,
    body: new WebBodySource(null, null),
    limits: DEFAULT_BODY_LIMITS,
  });
}

describe("QueryReader", () => {
  it("gives what Node's querystring gives for every declared name, on 5,000 generated strings", () => {
    const reader = new QueryReader(NAMES);
    let compared = 0;
    for (const text of queryStrings(5_000)) {
      const values = reader.read(text);
      expect({ text, values: { ...values } }).toEqual({ text, values: expectedFor(text) });
      compared++;
    }
    expect(compared).toBe(5_000);
  });

  it("keeps repeated keys in order, the way request.query does", () => {
    expect({ ...new QueryReader(["page", "size"]).read("page=2&size=5&page=3&page=&x=1") }).toEqual({
      page: ["2", "3", ""],
      size: "5",
    });
  });

  it("never reads a declared name from Object.prototype", () => {
    const values = new QueryReader(["constructor", "toString"]).read("x=1");
    expect(values?.constructor).toBeUndefined();
    expect(values?.toString).toBeUndefined();
  });

  it("reads names that JavaScript quotes or escapes as any other name", () => {
    const names = ['a"b', "c\\d", "e\u2028f", "${g}", "h'i"];
    const values = new QueryReader(names).read("a\"b=1&c\\d=2&e\u2028f=3&${g}=4&h'i=5&x=6");
    expect({ ...values }).toEqual({ 'a"b': "1", "c\\d": "2", "e\u2028f": "3", "${g}": "4", "h'i": "5" });
  });

  it("reads a declared __proto__ as an own value, the prototype untouched", () => {
    const reader = new QueryReader(["__proto__", "a"]);
    const sent = reader.read("__proto__=1&a=2")!;
    expect([Object.hasOwn(sent, "__proto__"), sent.__proto__, sent.a]).toEqual([true, "1", "2"]);
    const unsent = reader.read("a=2")!;
    expect([Object.hasOwn(unsent, "__proto__"), Object.getPrototypeOf(unsent)]).toEqual([
      true,
      Object.prototype,
    ]);
  });

  it.each([
    ["a percent-encoded character", "a=caf%C3%A9"],
    ["a plus for a space", "a=x+y"],
  ])("leaves a string with %s to request.query", (_why, text) => {
    expect(new QueryReader(["a"]).read(text)).toBeUndefined();
  });

  it("reads names past the 1,000th key, as request.query does", () => {
    const text = `${"z=1&".repeat(1_500)}a=1&a=2`;
    expect([{ ...new QueryReader(["a"]).read(text) }, requestWithQuery(text).query.a]).toEqual([
      { a: ["1", "2"] },
      ["1", "2"],
    ]);
  });

  it("leaves a route that declares the empty name to request.query", () => {
    expect(new QueryReader(["", "a"]).read("=x&a=1")).toBeUndefined();
  });
});

describe("query parameters", () => {
  const search = endpoint({
    params: { q: p.Query(z.string()), page: p.Query(z.int(), { default: 1 }) },
    returns: JsonResponse,
    handler: (_request, { q, page }) => new JsonResponse({ q, page }),
  });

  it.each([
    ["plain", "q=abc&page=2", { q: "abc", page: 2 }],
    ["percent-encoded", "q=caf%C3%A9&p%61ge=3", { q: "café", page: 3 }],
    ["with plus signs", "q=a+b&page=4", { q: "a b", page: 4 }],
  ])("read the same whether %s or not", async (_kind, queryString, expected) => {
    const server = await serve([path("/search", { endpoint: search })]);
    expect(await jsonOf(server.fetch(`/search?${queryString}`))).toEqual({ status: 200, body: expected });
  });

  it("are read past the 1,000th key of the query, whether plain or encoded", async () => {
    const server = await serve([path("/search", { endpoint: search })]);
    const others = "x=1&".repeat(1_500);
    expect([
      await jsonOf(server.fetch(`/search?${others}q=abc&page=2`)),
      await jsonOf(server.fetch(`/search?${others}q=caf%C3%A9&page=3`)),
    ]).toEqual([
      { status: 200, body: { q: "abc", page: 2 } },
      { status: 200, body: { q: "café", page: 3 } },
    ]);
  });

  it("are read through a request class that defines its own query", async () => {
    class NestedQueryRequest extends HttpRequest {
      override get query() {
        // Such a class might parse `filter[q]=…`; this one takes the value from a bracketed key.
        return { ...super.query, q: String(super.query["filter[q]"] ?? "") };
      }
    }
    const server = await serve([path("/search", { endpoint: search })], { requestClass: NestedQueryRequest });
    expect(await jsonOf(server.fetch("/search?filter[q]=maths&q=ignored"))).toEqual({
      status: 200,
      body: { q: "maths", page: 1 },
    });
  });
});
