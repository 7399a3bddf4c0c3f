import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { startServer } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { echo } from "../../support/echo.ts";
import { JSON_HEADERS, jsonOf, serveEndpoint } from "../../support/serve.ts";

describe("rule 16: everything read is validated, and failures of all sources come back together", () => {
  it("collects path, query, header, cookie and body failures into one 422", async () => {
    const server = await serveEndpoint(
      "/courses/{course_id}",
      echo({
        course_id: p.Path(z.int(), { gt: 0 }),
        size: p.Query(z.int(), { default: 10, ge: 1, le: 100 }),
        x_token: p.Header(z.string(), { minLength: 8 }),
        session: p.Cookie(z.string()),
        body: p.Json(z.object({ student_id: z.int().gt(0), note: z.string().max(5).optional() })),
      }),
      ["POST"],
    );
    const response = server.fetch("/courses/0?size=101", {
      method: "POST",
      headers: { ...JSON_HEADERS, "x-token": "short" },
      body: JSON.stringify({ student_id: -1, note: "far too long" }),
    });
    expect(await jsonOf(response)).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["path", "course_id"],
            msg: "Too small: expected number to be >0",
            type: "too_small",
            input: 0,
          },
          {
            loc: ["query", "size"],
            msg: "Too big: expected number to be <=100",
            type: "too_big",
            input: 101,
          },
          {
            loc: ["header", "x-token"],
            msg: "Too small: expected string to have >=8 characters",
            type: "too_small",
            input: "short",
          },
          { loc: ["cookie", "session"], msg: "Field required", type: "missing", input: null },
          {
            loc: ["body", "student_id"],
            msg: "Too small: expected number to be >0",
            type: "too_small",
            input: -1,
          },
          {
            loc: ["body", "note"],
            msg: "Too big: expected string to have <=5 characters",
            type: "too_big",
            input: "far too long",
          },
        ],
      },
    });
  });

  it("lists the failures by source (path, query, header, cookie, body), whatever the declaration order", async () => {
    const server = await serveEndpoint(
      "/list",
      echo({
        token: p.Header(z.string()),
        size: p.Query(z.int(), { le: 100 }),
        session: p.Cookie(z.string()),
      }),
    );
    expect(await jsonOf(server.fetch("/list?size=101"))).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["query", "size"],
            msg: "Too big: expected number to be <=100",
            type: "too_big",
            input: 101,
          },
          { loc: ["header", "token"], msg: "Field required", type: "missing", input: null },
          { loc: ["cookie", "session"], msg: "Field required", type: "missing", input: null },
        ],
      },
    });
  });

  it("reports an absent field as Field required at any depth of a JSON body: a nested model, a list item", async () => {
    const Address = z.object({ city: z.string(), zip: z.string().optional() });
    const Order = z.object({
      title: z.string(),
      address: Address,
      lines: z.array(z.object({ sku: z.string() })),
    });
    const server = await serveEndpoint("/orders", echo({ order: p.Json(Order) }), ["POST"]);
    const body = '{"address":{"zip":"75001"},"lines":[{"sku":"a"},{}]}';
    expect(await jsonOf(server.fetch("/orders", { method: "POST", headers: JSON_HEADERS, body }))).toEqual({
      status: 422,
      body: {
        detail: [
          { loc: ["body", "title"], msg: "Field required", type: "missing", input: null },
          { loc: ["body", "address", "city"], msg: "Field required", type: "missing", input: null },
          { loc: ["body", "lines", 1, "sku"], msg: "Field required", type: "missing", input: null },
        ],
      },
    });
  });

  it("names an aliased parameter by its alias as declared, in every source (a header's too, as the document does)", async () => {
    const server = await serveEndpoint(
      "/a",
      echo({
        perPage: p.Query(z.int(), { alias: "per-page", le: 100 }),
        count: p.Header(z.int(), { alias: "X-Count" }),
        sessionId: p.Cookie(z.string(), { alias: "session-id" }),
      }),
    );
    expect(await jsonOf(server.fetch("/a?per-page=500", { headers: { "x-count": "many" } }))).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["query", "per-page"],
            msg: "Too big: expected number to be <=100",
            type: "too_big",
            input: 500,
          },
          {
            loc: ["header", "X-Count"],
            msg: "Invalid input: expected number, received string",
            type: "invalid_type",
            input: "many",
          },
          { loc: ["cookie", "session-id"], msg: "Field required", type: "missing", input: null },
        ],
      },
    });
  });

  it("names a model field by the wire name the client used", async () => {
    const Paging = z.object({ pageSize: z.int().max(50).meta({ alias: "page-size" }) });
    const server = await serveEndpoint(
      "/list",
      echo({ paging: p.Query(Paging), token: p.Header(z.string(), { alias: "X-Api-Key" }) }),
    );
    expect(await jsonOf(server.fetch("/list?page-size=99"))).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["query", "page-size"],
            msg: "Too big: expected number to be <=50",
            type: "too_big",
            input: 99,
          },
          { loc: ["header", "X-Api-Key"], msg: "Field required", type: "missing", input: null },
        ],
      },
    });
  });

  it("names a header in the 422 as the document's parameter names it: an alias as declared, a model field's alias too", async () => {
    const Tracing = z.object({ spanId: z.string().meta({ alias: "X-Span-ID" }) });
    const app = createApp({
      routes: [
        path("/h", {
          endpoint: echo({
            trace: p.Header(z.string(), { alias: "X-Trace" }),
            x_token: p.Header(z.string()),
            tracing: p.Header(Tracing),
          }),
        }),
      ],
    });
    const documented = app.openapi().paths["/h"]!.get!.parameters!.map((parameter) => parameter.name);
    expect(documented).toEqual(["X-Trace", "x-token", "X-Span-ID"]);
    const server = await startServer(app);
    try {
      const { status, body } = await jsonOf(server.fetch("/h"));
      expect(status).toBe(422);
      expect(body).toEqual({
        detail: documented.map((name) => ({
          loc: ["header", name],
          msg: "Field required",
          type: "missing",
          input: null,
        })),
      });
    } finally {
      await server.close();
    }
  });

  it("points at the whole body when a JSON model gets something that is not an object", async () => {
    const server = await serveEndpoint("/bind", echo({ body: p.Json(z.object({ student_id: z.int() })) }), [
      "POST",
    ]);
    const response = server.fetch("/bind", { method: "POST", headers: JSON_HEADERS, body: "[1,2]" });
    expect(await jsonOf(response)).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["body"],
            msg: "Invalid input: expected object, received array",
            type: "invalid_type",
            input: [1, 2],
          },
        ],
      },
    });
  });

  // JSON.parse reads a number past a double's range as Infinity, which JSON writes null: the mark
  // of an absent value. The 422 quotes what was sent, as it does for ?price=1e400.
  it("quotes a JSON number past a double's range as sent, not as null, at any depth", async () => {
    const Order = z.object({ price: z.number(), quantities: z.array(z.int()), note: z.string() });
    const model = await serveEndpoint("/order", echo({ order: p.Json(Order) }), ["POST"]);
    const body = '{"price": 1e400, "quantities": [1, -1E+999], "note": 2e308}';
    expect(await jsonOf(model.fetch("/order", { method: "POST", headers: JSON_HEADERS, body }))).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["body", "price"],
            msg: "Invalid input: expected number, received Infinity",
            type: "invalid_type",
            input: "1e400",
          },
          {
            loc: ["body", "quantities", 1],
            msg: "Invalid input: expected number, received -Infinity",
            type: "invalid_type",
            input: "-1E+999",
          },
          {
            loc: ["body", "note"],
            msg: "Invalid input: expected string, received Infinity",
            type: "invalid_type",
            input: "2e308",
          },
        ],
      },
    });
    const embedded = await serveEndpoint(
      "/price",
      echo({ price: p.Json(z.number()), currency: p.Json(z.string()) }),
      ["POST"],
    );
    const sent = { method: "POST", headers: JSON_HEADERS, body: '{"price": 1e400, "currency": "EUR"}' };
    expect(await jsonOf(embedded.fetch("/price", sent))).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["body", "price"],
            msg: "Invalid input: expected number, received Infinity",
            type: "invalid_type",
            input: "1e400",
          },
        ],
      },
    });
  });

  // A schema that takes any value would hand the endpoint Infinity, which an answer writes null: the
  // number sent would change without a word. Refused as a number schema refuses it, quoted as sent.
  it("refuses a JSON number past a double's range where the schema takes any value, quoted as sent", async () => {
    const tooBig = (loc: (string | number)[], input: string) => ({
      loc,
      msg: "Number out of range: a double holds at most ±1.7976931348623157e+308",
      type: "too_big",
      input,
    });
    const tooSmall = (loc: (string | number)[], input: string) => ({
      ...tooBig(loc, input),
      type: "too_small",
    });
    const server = await serveEndpoint("/any", echo({ data: p.Json(z.unknown()) }), ["POST"]);
    const send = (body: string) =>
      jsonOf(server.fetch("/any", { method: "POST", headers: JSON_HEADERS, body }));
    expect(await send('{"a": 1e400, "b": [1, -1E+999], "c": {"d": 2e308}}')).toEqual({
      status: 422,
      body: {
        detail: [
          tooBig(["body", "a"], "1e400"),
          tooSmall(["body", "b", 1], "-1E+999"),
          tooBig(["body", "c", "d"], "2e308"),
        ],
      },
    });
    expect(await send("1e400")).toEqual({ status: 422, body: { detail: [tooBig(["body"], "1e400")] } });
    // The largest and smallest doubles are numbers as any other; a number too small for a double is 0.
    expect(await send("[1.7976931348623157e308, -5e-324, 1e-400]")).toEqual({
      status: 200,
      body: { data: [1.7976931348623157e308, -5e-324, 0] },
    });

    const kinds = await serveEndpoint(
      "/kinds",
      echo({
        tags: p.Json(z.record(z.string(), z.any()), { embed: true }),
        note: p.Json(z.object({ title: z.string() }).loose(), { embed: true }),
      }),
      ["POST"],
    );
    const body = '{"tags": {"size": 1e999}, "note": {"title": "t", "weight": -1e400}}';
    expect(await jsonOf(kinds.fetch("/kinds", { method: "POST", headers: JSON_HEADERS, body }))).toEqual({
      status: 422,
      body: {
        detail: [tooBig(["body", "tags", "size"], "1e999"), tooSmall(["body", "note", "weight"], "-1e400")],
      },
    });

    // Rule 16: with the other sources' failures, in the order of the sources, not after them are fixed.
    const mixed = await serveEndpoint(
      "/mixed",
      echo({
        page: p.Query(z.int()),
        meta: p.Json(z.unknown(), { embed: true }),
        price: p.Json(z.number()),
      }),
      ["POST"],
    );
    const sent = { method: "POST", headers: JSON_HEADERS, body: '{"meta": [1e400], "price": "free"}' };
    expect(await jsonOf(mixed.fetch("/mixed?page=one", sent))).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["query", "page"],
            msg: "Invalid input: expected number, received string",
            type: "invalid_type",
            input: "one",
          },
          tooBig(["body", "meta", 0], "1e400"),
          {
            loc: ["body", "price"],
            msg: "Invalid input: expected number, received string",
            type: "invalid_type",
            input: "free",
          },
        ],
      },
    });
  });

  // json_depth has no ceiling: the look for 1e400 must not overflow the stack where an app raised it.
  it("finds a number past a double's range at the deepest nesting json_depth allows, without overflowing", async () => {
    const depth = 100_000;
    const server = await serveEndpoint(
      "/deep",
      endpoint({
        params: { data: p.Json(z.unknown()) },
        returns: JsonResponse,
        handler: () => new JsonResponse({ read: true }),
      }),
      ["POST"],
      { settings: { LIMITS: { json_depth: depth } } },
    );
    const send = (inner: string) =>
      jsonOf(
        server.fetch("/deep", {
          method: "POST",
          headers: JSON_HEADERS,
          body: `${"[".repeat(depth)}${inner}${"]".repeat(depth)}`,
        }),
      );
    expect(await send("1e400")).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["body", ...Array.from({ length: depth }, () => 0)],
            msg: "Number out of range: a double holds at most ±1.7976931348623157e+308",
            type: "too_big",
            input: "1e400",
          },
        ],
      },
    });
    expect(await send("1")).toEqual({ status: 200, body: { read: true } });
    // The number is found in the text as JSON.parse reads it: brackets in strings are text, a repeated key's last value counts.
    const sent = '{"s": "[,\\"{]", "a": 1, "a": [2, -1e400], "b": {"c": 1e999}}';
    expect(
      await jsonOf(server.fetch("/deep", { method: "POST", headers: JSON_HEADERS, body: sent })),
    ).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["body", "a", 1],
            msg: "Number out of range: a double holds at most ±1.7976931348623157e+308",
            type: "too_small",
            input: "-1e400",
          },
          {
            loc: ["body", "b", "c"],
            msg: "Number out of range: a double holds at most ±1.7976931348623157e+308",
            type: "too_big",
            input: "1e999",
          },
        ],
      },
    });
  });

  it("enforces every constraint option: gt, lt, multipleOf, minLength, maxLength, pattern", async () => {
    const server = await serveEndpoint(
      "/c",
      echo({
        a: p.Query(z.number(), { gt: 0, lt: 1 }),
        b: p.Query(z.int(), { multipleOf: 5 }),
        c: p.Query(z.string(), { minLength: 2, maxLength: 3, pattern: "^[a-z]+$" }),
      }),
    );
    expect(await jsonOf(server.fetch("/c?a=0.5&b=10&c=ab"))).toEqual({
      status: 200,
      body: { a: 0.5, b: 10, c: "ab" },
    });
    expect(await jsonOf(server.fetch("/c?a=1&b=7&c=A"))).toEqual({
      status: 422,
      body: {
        detail: [
          { loc: ["query", "a"], msg: "Too big: expected number to be <1", type: "too_big", input: 1 },
          {
            loc: ["query", "b"],
            msg: "Invalid number: must be a multiple of 5",
            type: "not_multiple_of",
            input: 7,
          },
          {
            loc: ["query", "c"],
            msg: "Too small: expected string to have >=2 characters",
            type: "too_small",
            input: "A",
          },
          {
            loc: ["query", "c"],
            msg: "Invalid string: must match pattern /^[a-z]+$/",
            type: "invalid_format",
            input: "A",
          },
        ],
      },
    });
  });
});

describe("audit: docs/validation.md, JSON bodies are not converted", () => {
  it('refuses "1965" for an int and "true" for a boolean in a JSON body: JSON has its own numbers and booleans', async () => {
    const Book = z.object({ year: z.int(), available: z.boolean() });
    const server = await serveEndpoint("/books", echo({ book: p.Json(Book) }), ["POST"]);
    const body = JSON.stringify({ year: "1965", available: "true" });
    expect(await jsonOf(server.fetch("/books", { method: "POST", headers: JSON_HEADERS, body }))).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["body", "year"],
            msg: "Invalid input: expected number, received string",
            type: "invalid_type",
            input: "1965",
          },
          {
            loc: ["body", "available"],
            msg: "Invalid input: expected boolean, received string",
            type: "invalid_type",
            input: "true",
          },
        ],
      },
    });
  });
});

describe("a strict model's extra keys", () => {
  it("are one issue a key, at the key and with its value, in a JSON body alone and nested in it (FastAPI's extra_forbidden)", async () => {
    const Address = z.strictObject({ street: z.string() });
    const server = await serveEndpoint(
      "/people",
      echo({ person: p.Json(z.strictObject({ name: z.string(), address: Address })) }),
      ["POST"],
    );
    const response = server.fetch("/people", {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify({ name: "Ada", nick: 1, age: null, address: { street: "Main", floor: [2] } }),
    });
    expect(await jsonOf(response)).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["body", "address", "floor"],
            msg: 'Unrecognized key: "floor"',
            type: "unrecognized_keys",
            input: [2],
          },
          { loc: ["body", "nick"], msg: 'Unrecognized key: "nick"', type: "unrecognized_keys", input: 1 },
          { loc: ["body", "age"], msg: 'Unrecognized key: "age"', type: "unrecognized_keys", input: null },
        ],
      },
    });
  });
});
