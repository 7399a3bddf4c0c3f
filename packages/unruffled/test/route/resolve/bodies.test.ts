import { gzipSync } from "node:zlib";
import { exceptionHandler, HttpError } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { echo } from "../../support/echo.ts";
import { bodyOf, openRaw, statusOf } from "../../support/raw-http.ts";
import { JSON_HEADERS, jsonOf, serve, serveEndpoint } from "../../support/serve.ts";

const bind = echo({ body: p.Json(z.object({ student_id: z.int(), course_id: z.int() })) });

describe("JSON bodies", () => {
  it("reports malformed JSON as a 400 client error", async () => {
    const server = await serveEndpoint("/bind", bind, ["POST"]);
    expect(
      await jsonOf(
        server.fetch("/bind", { method: "POST", headers: JSON_HEADERS, body: '{"student_id": 1,' }),
      ),
    ).toEqual({
      status: 400,
      body: {
        detail:
          "Malformed JSON body: Expected double-quoted property name in JSON at position 17 (line 1 column 18)",
      },
    });
  });

  it("ignores a byte order mark before the JSON, as RFC 8259 allows", async () => {
    const server = await serveEndpoint("/bind", bind, ["POST"]);
    const body = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('{"student_id":1,"course_id":2}'),
    ]);
    expect(await jsonOf(server.fetch("/bind", { method: "POST", headers: JSON_HEADERS, body }))).toEqual({
      status: 200,
      body: { body: { student_id: 1, course_id: 2 } },
    });
  });

  it("refuses a body in another format with 415", async () => {
    const server = await serveEndpoint("/bind", bind, ["POST"]);
    expect(
      await jsonOf(
        server.fetch("/bind", { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" }),
      ),
    ).toEqual({
      status: 415,
      body: { detail: "Expected a JSON body (application/json), got text/plain" },
    });
  });

  it("accepts a JSON body sent without a content type, and +json media types", async () => {
    const server = await serveEndpoint("/bind", bind, ["POST"]);
    const plain = await fetch(`${server.url}/bind`, {
      method: "POST",
      body: new Blob(['{"student_id":1,"course_id":2}']),
    });
    expect(await jsonOf(plain)).toEqual({ status: 200, body: { body: { student_id: 1, course_id: 2 } } });
    const vendor = server.fetch("/bind", {
      method: "POST",
      headers: { "content-type": "application/vnd.api+json; charset=utf-8" },
      body: '{"student_id":3,"course_id":4}',
    });
    expect(await jsonOf(vendor)).toEqual({ status: 200, body: { body: { student_id: 3, course_id: 4 } } });
  });

  it("refuses a body whose announced length passes the limit with 413, before reading it", async () => {
    const server = await serveEndpoint("/bind", bind, ["POST"], {
      settings: { LIMITS: { body_size: 1024 } },
    });
    const exchange = await openRaw(server.port);
    await exchange.write(
      "POST /bind HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n",
    );
    const raw = await exchange.closed();
    expect(statusOf(raw)).toBe(413);
    expect(raw).toContain("connection: close");
    expect(JSON.parse(bodyOf(raw))).toEqual({
      detail: "Request body is larger than the limit of 1024 bytes",
    });
  });

  it("refuses a chunked body as soon as it passes the limit", async () => {
    const server = await serveEndpoint("/bind", bind, ["POST"], {
      settings: { LIMITS: { body_size: 1024 } },
    });
    const exchange = await openRaw(server.port);
    await exchange.write(
      "POST /bind HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
    );
    const chunk = "x".repeat(800);
    await exchange.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    await exchange.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    const raw = await exchange.waitFor("limit of 1024 bytes");
    expect(statusOf(raw)).toBe(413);
  });

  it("treats an empty body as a missing model", async () => {
    const server = await serveEndpoint("/bind", bind, ["POST"]);
    expect(await jsonOf(server.fetch("/bind", { method: "POST", headers: JSON_HEADERS }))).toEqual({
      status: 422,
      body: { detail: [{ loc: ["body"], msg: "Field required", type: "missing", input: null }] },
    });
  });

  it("never lets __proto__ keys reach the prototype", async () => {
    const server = await serveEndpoint("/bind", echo({ body: p.Json(z.object({ student_id: z.int() })) }), [
      "POST",
    ]);
    const response = server.fetch("/bind", {
      method: "POST",
      headers: JSON_HEADERS,
      body: '{"student_id":1,"__proto__":{"polluted":true}}',
    });
    expect(await jsonOf(response)).toEqual({ status: 200, body: { body: { student_id: 1 } } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("JSON values with no fixed fields: the whole body, as FastAPI reads Union[Cat, Dog] or Dict[str, float]", () => {
  const Pet = z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("cat"), lives: z.int(), born: z.date() }),
    z.object({ kind: z.literal("dog"), good: z.boolean() }),
  ]);
  const post = (
    server: { fetch: (path: string, init: RequestInit) => Promise<Response> },
    path: string,
    body: unknown,
  ) => jsonOf(server.fetch(path, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(body) }));

  it("reads a union of models from the whole body, dates as ISO strings, issues at the body's own paths", async () => {
    const server = await serveEndpoint("/pets", echo({ pet: p.Json(Pet) }), ["POST"]);
    expect(await post(server, "/pets", { kind: "cat", lives: 9, born: "2020-01-02T00:00:00Z" })).toEqual({
      status: 200,
      body: { pet: { kind: "cat", lives: 9, born: "2020-01-02T00:00:00.000Z" } },
    });
    expect(await post(server, "/pets", { kind: "dog", good: "yes" })).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["body", "good"],
            msg: "Invalid input: expected boolean, received string",
            type: "invalid_type",
            input: "yes",
          },
        ],
      },
    });
  });

  it("reads a record, an intersection and any value from the whole body", async () => {
    const prices = await serveEndpoint(
      "/prices",
      echo({ prices: p.Json(z.record(z.string(), z.number())) }),
      ["POST"],
    );
    expect(await post(prices, "/prices", { tea: 2.5, cake: 3 })).toEqual({
      status: 200,
      body: { prices: { tea: 2.5, cake: 3 } },
    });
    const both = z.intersection(z.object({ a: z.int() }), z.object({ b: z.string() }));
    const merged = await serveEndpoint("/both", echo({ both: p.Json(both) }), ["POST"]);
    expect(await post(merged, "/both", { a: 1, b: "x" })).toEqual({
      status: 200,
      body: { both: { a: 1, b: "x" } },
    });
    const anything = await serveEndpoint("/any", echo({ value: p.Json(z.unknown()) }), ["POST"]);
    expect(await post(anything, "/any", [1, { x: null }])).toEqual({
      status: 200,
      body: { value: [1, { x: null }] },
    });
  });

  it("takes a bare union of models as the JSON body, as it takes a bare model", async () => {
    const server = await serveEndpoint("/pets", echo({ pet: Pet }), ["POST"]);
    expect(await post(server, "/pets", { kind: "dog", good: true })).toEqual({
      status: 200,
      body: { pet: { kind: "dog", good: true } },
    });
  });

  it("reads a tuple from its own key, as it reads a list", async () => {
    const server = await serveEndpoint("/pair", echo({ pair: p.Json(z.tuple([z.int(), z.string()])) }), [
      "POST",
    ]);
    expect(await post(server, "/pair", { pair: [1, "a"] })).toEqual({
      status: 200,
      body: { pair: [1, "a"] },
    });
  });

  it("refuses, when the route is built, such a value beside another JSON parameter", async () => {
    await expect(
      serveEndpoint("/pets", echo({ pet: p.Json(Pet), note: p.Json(z.string()) }), ["POST"]),
    ).rejects.toThrow(
      'endpoint "post_pets" (POST /pets), parameter "pet" is a JSON value with no fixed fields (a union of models), which is the whole body: it cannot share the body with parameter "note". Declare one z.object model that holds both.',
    );
  });
});

// What FastAPI's own body tests check (test_body*, test_body_multiple_params*, test_body_nested_models*,
// test_union_*body, test_put_no_body), where unruffled reads the body the same way.
describe("JSON bodies as FastAPI's body tests read them", () => {
  const Item = z.object({
    name: z.string(),
    price: z.number(),
    description: z.string().optional(),
    tax: z.number().optional(),
  });
  const User = z.object({ username: z.string(), full_name: z.string().optional() });
  const send = (
    server: { fetch: (path: string, init: RequestInit) => Promise<Response> },
    target: string,
    body?: string,
  ) => jsonOf(server.fetch(target, { method: "PUT", headers: body === undefined ? {} : JSON_HEADERS, body }));
  const missing = (...names: string[]) =>
    names.map((name) => ({ loc: ["body", name], msg: "Field required", type: "missing", input: null }));

  it("runs the handler without an optional model when no body is sent, reading the other sources", async () => {
    const server = await serveEndpoint(
      "/items/{item_id}",
      echo({ item_id: p.Path(z.int()), q: p.Query(z.string().optional()), item: p.Json(Item.optional()) }),
      ["PUT"],
    );
    expect(await send(server, "/items/5?q=bar")).toEqual({ status: 200, body: { item_id: 5, q: "bar" } });
    expect(await send(server, "/items/5", '{"name":"Foo","price":50.5}')).toEqual({
      status: 200,
      body: { item_id: 5, item: { name: "Foo", price: 50.5 } },
    });
  });

  it("reports every missing field of the models and scalars that share the body, together", async () => {
    const server = await serveEndpoint(
      "/items/{item_id}",
      echo({
        item_id: p.Path(z.int()),
        item: p.Json(Item),
        user: p.Json(User),
        importance: p.Json(z.int().gt(0)),
      }),
      ["PUT"],
    );
    expect(await send(server, "/items/5", "{}")).toEqual({
      status: 422,
      body: { detail: missing("name", "price", "username", "importance") },
    });
    expect(
      await send(server, "/items/5", '{"name":"Foo","price":50.5,"username":"dave","importance":0}'),
    ).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["body", "importance"],
            msg: "Too small: expected number to be >0",
            type: "too_small",
            input: 0,
          },
        ],
      },
    });
    expect(
      await send(server, "/items/5", '{"name":"Foo","price":50.5,"username":"dave","importance":2}'),
    ).toEqual({
      status: 200,
      body: { item_id: 5, item: { name: "Foo", price: 50.5 }, user: { username: "dave" }, importance: 2 },
    });
  });

  it("points at a nested model's field, a list item's field, and a list that is not one", async () => {
    const Image = z.object({ url: z.url(), name: z.string() });
    const Offer = z.object({
      name: z.string(),
      tags: z.array(z.string()).default([]),
      image: Image.optional(),
      images: z.array(Image).optional(),
    });
    const server = await serveEndpoint("/offers", echo({ offer: p.Json(Offer) }), ["PUT"]);
    expect(
      await send(server, "/offers", '{"name":"Foo","image":{"url":"http://example.com/a.png"}}'),
    ).toEqual({
      status: 422,
      body: {
        detail: [{ loc: ["body", "image", "name"], msg: "Field required", type: "missing", input: null }],
      },
    });
    expect(
      await send(server, "/offers", '{"name":"Foo","images":[{"url":"not a valid url","name":"a"}]}'),
    ).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["body", "images", 0, "url"],
            msg: "Invalid URL",
            type: "invalid_format",
            input: "not a valid url",
          },
        ],
      },
    });
    expect(
      await send(server, "/offers", '{"name":"Foo","images":{"url":"http://example.com/","name":"a"}}'),
    ).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["body", "images"],
            msg: "Invalid input: expected array, received object",
            type: "invalid_type",
            input: { url: "http://example.com/", name: "a" },
          },
        ],
      },
    });
    expect(await send(server, "/offers", '{"name":"Foo"}')).toEqual({
      status: 200,
      body: { offer: { name: "Foo", tags: [] } },
    });
  });

  it("reads a record whose keys are integers from the body's names, and refuses a name that is not one", async () => {
    const server = await serveEndpoint(
      "/index-weights",
      echo({ weights: p.Json(z.record(z.int(), z.number())) }),
      ["PUT"],
    );
    expect(await send(server, "/index-weights", '{"2":2.2,"3":3.3}')).toEqual({
      status: 200,
      body: { weights: { "2": 2.2, "3": 3.3 } },
    });
    expect(await send(server, "/index-weights", '{"foo":2.2,"3":3.3}')).toEqual({
      status: 422,
      body: {
        detail: [{ loc: ["body", "foo"], msg: "Invalid key in record", type: "invalid_key", input: "foo" }],
      },
    });
  });

  it("reads a union of models that share no discriminator as the first that accepts the body", async () => {
    const Base = z.object({ name: z.string().optional() });
    const Extended = Base.extend({ age: z.int() });
    const server = await serve([
      path("/other", {
        endpoint: echo({ item: p.Json(z.union([z.object({ price: z.int() }), Base])) }),
        methods: ["PUT"],
      }),
      path("/inherited", { endpoint: echo({ item: p.Json(z.union([Extended, Base])) }), methods: ["PUT"] }),
    ]);
    expect(await send(server, "/other", '{"price":100}')).toEqual({
      status: 200,
      body: { item: { price: 100 } },
    });
    expect(await send(server, "/other", '{"name":"Foo"}')).toEqual({
      status: 200,
      body: { item: { name: "Foo" } },
    });
    expect(await send(server, "/inherited", '{"name":"Foo","age":5}')).toEqual({
      status: 200,
      body: { item: { name: "Foo", age: 5 } },
    });
    expect(await send(server, "/inherited", '{"name":"Foo"}')).toEqual({
      status: 200,
      body: { item: { name: "Foo" } },
    });
  });

  it("ignores a body sent to an endpoint that reads none", async () => {
    const server = await serveEndpoint("/items/{item_id}", echo({ item_id: p.Path(z.string()) }), ["PUT"]);
    expect(await send(server, "/items/foo", '{"name":"Foo"}')).toEqual({
      status: 200,
      body: { item_id: "foo" },
    });
    expect(await send(server, "/items/foo")).toEqual({ status: 200, body: { item_id: "foo" } });
  });
});

describe("deeply nested JSON", () => {
  // Regression: 10,000 levels of "[" parsed fine, then the 422 that echoed the value overflowed the
  // stack in JSON.stringify and the client got a 500.
  it("refuses a body nested deeper than json_depth with 400, before parsing it", async () => {
    const server = await serveEndpoint("/bind", bind, ["POST"]);
    const deep = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;
    expect(
      await jsonOf(server.fetch("/bind", { method: "POST", headers: JSON_HEADERS, body: deep })),
    ).toEqual({
      status: 400,
      body: { detail: "Malformed JSON body: nested deeper than the limit of 64 levels" },
    });
  });

  it("counts objects and arrays alike, ignores brackets inside strings, and follows the setting", async () => {
    const server = await serveEndpoint(
      "/bind",
      echo({ body: p.Json(z.object({ a: z.unknown() })) }),
      ["POST"],
      {
        settings: { LIMITS: { json_depth: 3 } },
      },
    );
    const send = (body: string) =>
      jsonOf(server.fetch("/bind", { method: "POST", headers: JSON_HEADERS, body }));
    expect(await send('{"a":[{"b":"[[[[\\"]]]"}]}')).toEqual({
      status: 200,
      body: { body: { a: [{ b: '[[[["]]]' }] } },
    });
    expect(await send('{"a":[{"b":[]}]}')).toEqual({
      status: 400,
      body: { detail: "Malformed JSON body: nested deeper than the limit of 3 levels" },
    });
  });
});

describe("form bodies", () => {
  it("refuses a form past its limit with 413", async () => {
    const server = await serveEndpoint("/f", echo({ name: p.Form(z.string()) }), ["POST"], {
      settings: { LIMITS: { form_size: 64 } },
    });
    const response = server.fetch("/f", {
      method: "POST",
      body: new URLSearchParams({ name: "x".repeat(100) }),
    });
    expect(await jsonOf(response)).toEqual({
      status: 413,
      body: { detail: "Request body is larger than the limit of 64 bytes" },
    });
  });

  it("refuses more urlencoded fields than the fields limit with 413", async () => {
    const server = await serveEndpoint("/f", echo({ name: p.Form(z.string()) }), ["POST"], {
      settings: { LIMITS: { fields: 3 } },
    });
    const send = (body: string) =>
      jsonOf(
        server.fetch("/f", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body,
        }),
      );
    expect(await send("name=a&&b=1&c=2&")).toEqual({ status: 200, body: { name: "a" } });
    expect(await send("name=a&b=1&c=2&d=3")).toEqual({
      status: 413,
      body: { detail: "Too many form fields: the limit is 3" },
    });
  });

  it("reads more than Node's default 1,000 urlencoded keys when the limit allows it", async () => {
    const server = await serveEndpoint("/f", echo({ name: p.Form(z.string()) }), ["POST"], {
      settings: { LIMITS: { fields: 2_000 } },
    });
    const filler = Array.from({ length: 1_500 }, (_, index) => `k${index}=v`).join("&");
    expect(
      await jsonOf(
        server.fetch("/f", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: `${filler}&name=last`,
        }),
      ),
    ).toEqual({ status: 200, body: { name: "last" } });
  });

  // test_forms_single_model, test_request_forms, test_forms_from_non_typing_sequences
  it("fills a form model: repeated names for a list, a field's alias, the fields' defaults", async () => {
    const Person = z.object({
      username: z.string(),
      lastname: z.string(),
      age: z.int().optional(),
      tags: z.array(z.string()).default(["foo", "bar"]),
      alias_with: z.string().default("nothing").meta({ alias: "with" }),
    });
    const server = await serveEndpoint("/form", echo({ user: p.Form(Person) }), ["POST"]);
    const send = (body: string) =>
      jsonOf(
        server.fetch("/form", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body,
        }),
      );
    expect(
      await send("username=Rick&lastname=Sanchez&age=70&tags=plumbus&tags=citadel&with=something"),
    ).toEqual({
      status: 200,
      body: {
        user: {
          username: "Rick",
          lastname: "Sanchez",
          age: 70,
          tags: ["plumbus", "citadel"],
          alias_with: "something",
        },
      },
    });
    expect(await send("username=Rick&lastname=Sanchez")).toEqual({
      status: 200,
      body: { user: { username: "Rick", lastname: "Sanchez", tags: ["foo", "bar"], alias_with: "nothing" } },
    });
    expect(await send("username=Rick&lastname=Sanchez&age=seventy")).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["body", "age"],
            msg: "Invalid input: expected number, received string",
            type: "invalid_type",
            input: "seventy",
          },
        ],
      },
    });
  });

  it("reports every required form field of a request sent without a body", async () => {
    const server = await serveEndpoint(
      "/login",
      echo({
        username: p.Form(z.string()),
        password: p.Form(z.string()),
        items: p.Form(z.array(z.string())),
      }),
      ["POST"],
    );
    expect(await jsonOf(server.fetch("/login", { method: "POST" }))).toEqual({
      status: 422,
      body: {
        detail: ["username", "password", "items"].map((name) => ({
          loc: ["body", name],
          msg: "Field required",
          type: "missing",
          input: null,
        })),
      },
    });
    const body = new URLSearchParams([
      ["username", "Foo"],
      ["password", "secret"],
      ["items", "first"],
      ["items", "second"],
    ]);
    expect(await jsonOf(server.fetch("/login", { method: "POST", body }))).toEqual({
      status: 200,
      body: { username: "Foo", password: "secret", items: ["first", "second"] },
    });
  });

  it("refuses a JSON body sent to a form endpoint with 415", async () => {
    const server = await serveEndpoint("/f", echo({ name: p.Form(z.string()) }), ["POST"]);
    expect(await jsonOf(server.fetch("/f", { method: "POST", headers: JSON_HEADERS, body: "{}" }))).toEqual({
      status: 415,
      body: {
        detail:
          "Expected a form body (application/x-www-form-urlencoded or multipart/form-data), got application/json",
      },
    });
  });
});

// FastAPI's _get_multidict_value: a browser sends every input it has, unfilled ones as `age=`; a form
// field's "" is not sent (test_form_default, test_request_params/test_form).
describe("an empty form value is a value not sent, as FastAPI reads HTML forms", () => {
  const FORM_HEADERS = { "content-type": "application/x-www-form-urlencoded" };
  const missing = (...names: string[]) => ({
    status: 422,
    body: {
      detail: names.map((name) => ({
        loc: ["body", name],
        msg: "Field required",
        type: "missing",
        input: null,
      })),
    },
  });

  // test_form_default.py
  it("gives an optional field sent empty its absence, urlencoded and in a multipart body", async () => {
    const server = await serve([
      path("/urlencoded", { endpoint: echo({ age: p.Form(z.int().optional()) }), methods: ["POST"] }),
      path("/multipart", {
        endpoint: echo({ age: p.Form(z.int().optional()), file: p.File({ optional: true }) }),
        methods: ["POST"],
      }),
    ]);
    const urlencoded = server.fetch("/urlencoded", { method: "POST", headers: FORM_HEADERS, body: "age=" });
    expect(await jsonOf(urlencoded)).toEqual({ status: 200, body: {} });
    const form = new FormData();
    form.append("age", "");
    expect(await jsonOf(server.fetch("/multipart", { method: "POST", body: form }))).toEqual({
      status: 200,
      body: {},
    });
  });

  it("gives a field sent empty its default, for every type, a string's included", async () => {
    const server = await serveEndpoint(
      "/f",
      echo({
        page: p.Form(z.int(), { default: 1 }),
        note: p.Form(z.string(), { default: "none" }),
        active: p.Form(z.boolean(), { default: true }),
      }),
      ["POST"],
    );
    const response = server.fetch("/f", {
      method: "POST",
      headers: FORM_HEADERS,
      body: "page=&note=&active=",
    });
    expect(await jsonOf(response)).toEqual({ status: 200, body: { page: 1, note: "none", active: true } });
  });

  it("reports a required field sent empty as missing, a string's included", async () => {
    const server = await serveEndpoint(
      "/login",
      echo({ username: p.Form(z.string()), age: p.Form(z.int()) }),
      ["POST"],
    );
    const send = (body: string) =>
      jsonOf(server.fetch("/login", { method: "POST", headers: FORM_HEADERS, body }));
    expect(await send("username=&age=")).toEqual(missing("username", "age"));
    const form = new FormData();
    form.append("username", "");
    form.append("age", "");
    expect(await jsonOf(server.fetch("/login", { method: "POST", body: form }))).toEqual(
      missing("username", "age"),
    );
  });

  it("reads the last of repeated values, and only it: an empty last value is not sent", async () => {
    const server = await serveEndpoint("/f", echo({ age: p.Form(z.int().optional()) }), ["POST"]);
    const send = (body: string) =>
      jsonOf(server.fetch("/f", { method: "POST", headers: FORM_HEADERS, body }));
    expect(await send("age=&age=3")).toEqual({ status: 200, body: { age: 3 } });
    expect(await send("age=3&age=")).toEqual({ status: 200, body: {} });
  });

  it("applies to the fields of a form model: an optional one is absent, a required one missing", async () => {
    const Person = z.object({
      username: z.string(),
      age: z.int().optional(),
      city: z.string().default("Paris"),
    });
    const server = await serveEndpoint("/form", echo({ user: p.Form(Person) }), ["POST"]);
    const send = (body: string) =>
      jsonOf(server.fetch("/form", { method: "POST", headers: FORM_HEADERS, body }));
    expect(await send("username=Rick&age=&city=")).toEqual({
      status: 200,
      body: { user: { username: "Rick", city: "Paris" } },
    });
    expect(await send("username=&age=")).toEqual(missing("username"));
  });

  it("keeps the empty items of a list: only a single value counts as not sent", async () => {
    const server = await serveEndpoint("/f", echo({ tags: p.Form(z.array(z.string()), { default: [] }) }), [
      "POST",
    ]);
    const response = server.fetch("/f", { method: "POST", headers: FORM_HEADERS, body: "tags=&tags=a" });
    expect(await jsonOf(response)).toEqual({ status: 200, body: { tags: ["", "a"] } });
  });

  it("leaves the query, the headers and the cookies as they were: there an empty value is a value", async () => {
    const server = await serveEndpoint(
      "/c",
      echo({
        q: p.Query(z.int().optional()),
        x_age: p.Header(z.int().optional()),
        age: p.Cookie(z.int().optional()),
      }),
    );
    const response = server.fetch("/c?q=", { headers: { "x-age": "", cookie: "age=" } });
    expect(await jsonOf(response)).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["query", "q"],
            msg: "Invalid input: expected number, received string",
            type: "invalid_type",
            input: "",
          },
          {
            loc: ["header", "x-age"],
            msg: "Invalid input: expected number, received string",
            type: "invalid_type",
            input: "",
          },
          {
            loc: ["cookie", "age"],
            msg: "Invalid input: expected number, received string",
            type: "invalid_type",
            input: "",
          },
        ],
      },
    });
  });
});
// docs/parameters.md: "A value that may be absent is either .optional() (the handler gets undefined)
// or has a default", and the document does not require such a body.
describe("an optional model that shares the body, none of whose fields is sent", () => {
  const Address = z.object({ street: z.string(), number: z.int().optional() });

  it("is undefined in a form, and checked as a whole once one of its fields is sent", async () => {
    const server = await serveEndpoint(
      "/order",
      echo({ address: p.Form(Address.optional()), note: p.Form(z.string(), { default: "" }) }),
      ["POST"],
    );
    const send = (body?: string) =>
      jsonOf(
        server.fetch("/order", {
          method: "POST",
          headers: body === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" },
          body,
        }),
      );
    expect(await send("note=ring")).toEqual({ status: 200, body: { note: "ring" } });
    expect(await send()).toEqual({ status: 200, body: { note: "" } });
    expect(await send("number=4")).toEqual({
      status: 422,
      body: { detail: [{ loc: ["body", "street"], msg: "Field required", type: "missing", input: null }] },
    });
    expect(await send("street=Main&number=4")).toEqual({
      status: 200,
      body: { address: { street: "Main", number: 4 }, note: "" },
    });
  });

  it("is undefined beside another JSON parameter", async () => {
    const server = await serveEndpoint(
      "/order",
      echo({ address: p.Json(Address.optional()), note: p.Json(z.string(), { default: "" }) }),
      ["POST"],
    );
    const send = (body: string) =>
      jsonOf(server.fetch("/order", { method: "POST", headers: JSON_HEADERS, body }));
    expect(await send('{"note":"ring"}')).toEqual({ status: 200, body: { note: "ring" } });
    expect(await send('{"number":4}')).toEqual({
      status: 422,
      body: { detail: [{ loc: ["body", "street"], msg: "Field required", type: "missing", input: null }] },
    });
  });
});

// FastAPI's form model with extra="forbid" (request_form_models tutorial002) is z.strictObject here.
describe("a strict model that shares the body refuses the body's names no parameter reads", () => {
  const Login = z.strictObject({ username: z.string(), password: z.string() });
  const FORM_HEADERS = { "content-type": "application/x-www-form-urlencoded" };
  const unrecognized = {
    status: 422,
    body: {
      detail: [
        { loc: ["body", "extra"], msg: 'Unrecognized key: "extra"', type: "unrecognized_keys", input: "x" },
      ],
    },
  };

  it("refuses a field a strict form model does not declare, alone or beside a scalar", async () => {
    const server = await serve([
      path("/alone", { endpoint: echo({ login: p.Form(Login) }), methods: ["POST"] }),
      path("/beside", {
        endpoint: echo({ login: p.Form(Login), remember: p.Form(z.boolean(), { default: false }) }),
        methods: ["POST"],
      }),
    ]);
    const send = (target: string, body: string) =>
      jsonOf(server.fetch(target, { method: "POST", headers: FORM_HEADERS, body }));
    expect(await send("/alone", "username=ann&password=secret&extra=x")).toEqual(unrecognized);
    expect(await send("/beside", "username=ann&password=secret&remember=on&extra=x")).toEqual(unrecognized);
    expect(await send("/beside", "username=ann&password=secret&remember=on")).toEqual({
      status: 200,
      body: { login: { username: "ann", password: "secret" }, remember: true },
    });
  });

  it("refuses a text field of a multipart body that neither the strict model nor a file reads", async () => {
    const server = await serveEndpoint(
      "/profile",
      echo({ login: p.Form(Login), avatar: p.File({ optional: true }) }),
      ["POST"],
    );
    const form = new FormData();
    form.append("username", "ann");
    form.append("password", "secret");
    form.append("avatar", new Blob(["png"]), "a.png");
    form.append("extra", "x");
    expect(await jsonOf(server.fetch("/profile", { method: "POST", body: form }))).toEqual(unrecognized);
  });

  // FastAPI hands a form model every part it received, files too: pydantic's extra="forbid" refuses a
  // file under a name no field reads (extra_forbidden), where this dropped it.
  it("refuses a file part that neither the strict model nor a File parameter reads, quoting the file", async () => {
    const server = await serve([
      path("/profile", {
        endpoint: echo({ login: p.Form(Login), avatar: p.File({ optional: true }) }),
        methods: ["POST"],
      }),
      path("/login", { endpoint: echo({ login: p.Form(Login) }), methods: ["POST"] }),
    ]);
    const form = (...files: [string, string, string][]) => {
      const body = new FormData();
      body.append("username", "ann");
      body.append("password", "secret");
      body.append("avatar", new Blob(["png"], { type: "image/png" }), "a.png");
      for (const [name, filename, content] of files)
        body.append(name, new Blob([content], { type: "text/plain" }), filename);
      return body;
    };
    const send = (target: string, body: FormData) => jsonOf(server.fetch(target, { method: "POST", body }));
    const notes = { filename: "notes.txt", contentType: "text/plain", size: 5 };
    expect(await send("/profile", form(["notes", "notes.txt", "hello"]))).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["body", "notes"],
            msg: 'Unrecognized key: "notes"',
            type: "unrecognized_keys",
            input: notes,
          },
        ],
      },
    });
    expect(await send("/login", form(["notes", "notes.txt", "hello"], ["notes", "b.txt", "hi"]))).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["body", "avatar"],
            msg: 'Unrecognized key: "avatar"',
            type: "unrecognized_keys",
            input: { filename: "a.png", contentType: "image/png", size: 3 },
          },
          {
            loc: ["body", "notes"],
            msg: 'Unrecognized key: "notes"',
            type: "unrecognized_keys",
            input: [notes, { filename: "b.txt", contentType: "text/plain", size: 2 }],
          },
        ],
      },
    });
    expect(await send("/profile", form())).toEqual({
      status: 200,
      body: {
        login: { username: "ann", password: "secret" },
        avatar: { filename: "a.png", contentType: "image/png", size: 3 },
      },
    });
  });

  it("takes a browser's unfilled file input (no file name, no bytes) for no file, not an extra part", async () => {
    const server = await serveEndpoint("/login", echo({ login: p.Form(Login) }), ["POST"]);
    const body = [
      '--b\r\nContent-Disposition: form-data; name="username"\r\n\r\nann\r\n',
      '--b\r\nContent-Disposition: form-data; name="password"\r\n\r\nsecret\r\n',
      '--b\r\nContent-Disposition: form-data; name="notes"; filename=""\r\n',
      "Content-Type: application/octet-stream\r\n\r\n\r\n--b--\r\n",
    ].join("");
    const headers = { "content-type": "multipart/form-data; boundary=b" };
    expect(await jsonOf(server.fetch("/login", { method: "POST", headers, body }))).toEqual({
      status: 200,
      body: { login: { username: "ann", password: "secret" } },
    });
  });

  it("refuses a top-level key of a JSON body that neither the strict model nor another parameter reads", async () => {
    const server = await serveEndpoint(
      "/login",
      echo({ login: p.Json(Login), remember: p.Json(z.boolean(), { default: false }) }),
      ["POST"],
    );
    const send = (body: string) =>
      jsonOf(server.fetch("/login", { method: "POST", headers: JSON_HEADERS, body }));
    expect(await send('{"username":"ann","password":"secret","remember":true,"extra":"x"}')).toEqual(
      unrecognized,
    );
    expect(await send('{"username":"ann","password":"secret","remember":true}')).toEqual({
      status: 200,
      body: { login: { username: "ann", password: "secret" }, remember: true },
    });
  });
});

// pydantic with extra="forbid" and an alias (populate_by_name off) takes a key spelt as the field's
// own name for an extra one: FastAPI reports it extra_forbidden at that key.
describe("a strict model refuses a key spelt as a field's name instead of its alias", () => {
  const Account = z.strictObject({ user_name: z.string().meta({ alias: "userName" }) });
  const FORM_HEADERS = { "content-type": "application/x-www-form-urlencoded" };
  const unrecognized = (location: string, name: string, input: unknown) => ({
    loc: [location, name],
    msg: `Unrecognized key: ${JSON.stringify(name)}`,
    type: "unrecognized_keys",
    input,
  });

  it("in a form, beside the alias or instead of it", async () => {
    const server = await serveEndpoint("/a", echo({ account: p.Form(Account) }), ["POST"]);
    const send = (body: string) =>
      jsonOf(server.fetch("/a", { method: "POST", headers: FORM_HEADERS, body }));
    expect(await send("userName=ann&user_name=bob")).toEqual({
      status: 422,
      body: { detail: [unrecognized("body", "user_name", "bob")] },
    });
    expect(await send("user_name=bob")).toEqual({
      status: 422,
      body: {
        detail: [
          { loc: ["body", "userName"], msg: "Field required", type: "missing", input: null },
          unrecognized("body", "user_name", "bob"),
        ],
      },
    });
    expect(await send("userName=ann")).toEqual({ status: 200, body: { account: { user_name: "ann" } } });
  });

  it("in a multipart body, a file under the field's name too, quoted after the text sent under it", async () => {
    const server = await serveEndpoint("/a", echo({ account: p.Form(Account) }), ["POST"]);
    const body = new FormData();
    body.append("userName", "ann");
    body.append("user_name", "bob");
    body.append("user_name", new Blob(["hi"], { type: "text/plain" }), "b.txt");
    body.append("notes", "n");
    body.append("notes", new Blob(["hello"], { type: "text/plain" }), "notes.txt");
    expect(await jsonOf(server.fetch("/a", { method: "POST", body }))).toEqual({
      status: 422,
      body: {
        detail: [
          unrecognized("body", "notes", ["n", { filename: "notes.txt", contentType: "text/plain", size: 5 }]),
          unrecognized("body", "user_name", [
            "bob",
            { filename: "b.txt", contentType: "text/plain", size: 2 },
          ]),
        ],
      },
    });
  });

  it("in a JSON body, the model alone or beside another parameter", async () => {
    const server = await serve([
      path("/alone", { endpoint: echo({ account: p.Json(Account) }), methods: ["POST"] }),
      path("/beside", {
        endpoint: echo({ account: p.Json(Account), remember: p.Json(z.boolean(), { default: false }) }),
        methods: ["POST"],
      }),
    ]);
    const send = (target: string, body: string) =>
      jsonOf(server.fetch(target, { method: "POST", headers: JSON_HEADERS, body }));
    const refused = { status: 422, body: { detail: [unrecognized("body", "user_name", 7)] } };
    expect(await send("/alone", '{"userName":"ann","user_name":7}')).toEqual(refused);
    expect(await send("/beside", '{"userName":"ann","user_name":7,"remember":true}')).toEqual(refused);
    expect(await send("/beside", '{"userName":"ann","remember":true}')).toEqual({
      status: 200,
      body: { account: { user_name: "ann" }, remember: true },
    });
  });
});

describe("bodies sent with a content coding", () => {
  const upload = echo({ note: p.File() });

  it("refuses a compressed JSON body with 415 and the coding it reads, instead of parsing its bytes", async () => {
    const server = await serveEndpoint("/bind", bind, ["POST"]);
    const response = await server.fetch("/bind", {
      method: "POST",
      headers: { ...JSON_HEADERS, "content-encoding": "gzip" },
      body: gzipSync('{"student_id":1,"course_id":2}'),
    });
    expect([response.headers.get("accept-encoding"), await jsonOf(response)]).toEqual([
      "identity",
      {
        status: 415,
        body: { detail: "Expected a body without a content coding (Content-Encoding), got gzip" },
      },
    ]);
  });

  it("names the coding before the media type, for a JSON endpoint as for a form", async () => {
    const server = await serveEndpoint("/bind", bind, ["POST"]);
    const response = server.fetch("/bind", {
      method: "POST",
      headers: { "content-type": "text/plain", "content-encoding": "gzip" },
      body: "{}",
    });
    expect(await jsonOf(response)).toEqual({
      status: 415,
      body: { detail: "Expected a body without a content coding (Content-Encoding), got gzip" },
    });
  });

  it("reads a body whose coding is identity as it is", async () => {
    const server = await serveEndpoint("/bind", bind, ["POST"]);
    const response = server.fetch("/bind", {
      method: "POST",
      headers: { ...JSON_HEADERS, "content-encoding": "Identity" },
      body: '{"student_id":1,"course_id":2}',
    });
    expect(await jsonOf(response)).toEqual({ status: 200, body: { body: { student_id: 1, course_id: 2 } } });
  });

  it("refuses an encoded form body and an encoded multipart body with 415", async () => {
    const form = await serveEndpoint("/f", echo({ name: p.Form(z.string()) }), ["POST"]);
    const files = await serveEndpoint("/u", upload, ["POST"]);
    const multipart = new FormData();
    multipart.append("note", new Blob(["hi"]), "note.txt");
    const encoded = { "content-encoding": "br, gzip" };
    expect([
      await jsonOf(
        form.fetch("/f", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", ...encoded },
          body: "name=ann",
        }),
      ),
      await jsonOf(files.fetch("/u", { method: "POST", headers: encoded, body: multipart })),
    ]).toEqual([
      {
        status: 415,
        body: { detail: "Expected a body without a content coding (Content-Encoding), got br, gzip" },
      },
      {
        status: 415,
        body: { detail: "Expected a body without a content coding (Content-Encoding), got br, gzip" },
      },
    ]);
  });
});

describe("clients that leave in the middle of their body", () => {
  /** Serves a JSON endpoint and a slow one that reads the body itself; records the errors answered. */
  async function serveRecording(gate: Promise<void>) {
    const answered: string[] = [];
    const slow = endpoint({
      returns: JsonResponse,
      async handler(request) {
        await gate;
        return new JsonResponse(await request.json());
      },
    });
    const server = await serve(
      [
        path("/bind", { endpoint: bind, methods: ["POST"] }),
        path("/slow", { endpoint: slow, methods: ["POST"] }),
      ],
      {
        exceptionHandlers: [
          exceptionHandler(HttpError, (error) => {
            answered.push(error.message);
            return new JsonResponse({ detail: error.message }, { status: error.status });
          }),
        ],
      },
    );
    return { server, answered };
  }

  async function sendHalfAndLeave(port: number, route: string): Promise<void> {
    const exchange = await openRaw(port);
    await exchange.write(
      `POST ${route} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"student_id":`,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    exchange.socket.destroy();
  }

  it("ends the request being read with a client error, not a request left hanging", async () => {
    const { server, answered } = await serveRecording(Promise.resolve());
    await sendHalfAndLeave(server.port, "/bind");
    await expect
      .poll(() => answered)
      .toEqual(["The client closed the connection before the body was complete"]);
  });

  it("ends it too when the handler asks for the body only after the client left", async () => {
    let open!: () => void;
    const { server, answered } = await serveRecording(new Promise((resolve) => (open = resolve)));
    await sendHalfAndLeave(server.port, "/slow");
    await new Promise((resolve) => setTimeout(resolve, 50));
    open();
    await expect
      .poll(() => answered)
      .toEqual(["The client closed the connection before the body was complete"]);
  });
});

describe("an embedded JSON parameter is read from its own key, as FastAPI reads Body(embed=True)", () => {
  const Item = z.object({
    name: z.string(),
    price: z.number(),
    description: z.string().optional(),
    tax: z.number().optional(),
  });
  const User = z.object({ username: z.string(), full_name: z.string().optional() });
  const put = (server: { fetch: (path: string, init: RequestInit) => Promise<Response> }, body?: string) =>
    jsonOf(
      server.fetch("/items/5", { method: "PUT", headers: body === undefined ? {} : JSON_HEADERS, body }),
    );
  const embedded = echo({ item_id: p.Path(z.int()), item: p.Json(Item, { embed: true }) });

  it("reads the model alone in the body from the key named after it", async () => {
    const server = await serveEndpoint("/items/{item_id}", embedded, ["PUT"]);
    expect(await put(server, '{"item":{"name":"Foo","price":50.5,"tax":3.2}}')).toEqual({
      status: 200,
      body: { item_id: 5, item: { name: "Foo", price: 50.5, tax: 3.2 } },
    });
  });

  it("reports a field of the model at the body's key, then the field", async () => {
    const server = await serveEndpoint("/items/{item_id}", embedded, ["PUT"]);
    expect(await put(server, '{"item":{"name":"Foo","price":"cheap"}}')).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["body", "item", "price"],
            msg: "Invalid input: expected number, received string",
            type: "invalid_type",
            input: "cheap",
          },
        ],
      },
    });
    expect(await put(server, '{"item":{"name":"Foo"}}')).toEqual({
      status: 422,
      body: {
        detail: [{ loc: ["body", "item", "price"], msg: "Field required", type: "missing", input: null }],
      },
    });
  });

  it("reports the key missing when the model's fields are sent at the top level, or no body at all", async () => {
    const server = await serveEndpoint("/items/{item_id}", embedded, ["PUT"]);
    const missing = {
      status: 422,
      body: { detail: [{ loc: ["body", "item"], msg: "Field required", type: "missing", input: null }] },
    };
    expect(await put(server, '{"name":"Foo","price":50.5}')).toEqual(missing);
    expect(await put(server, "{}")).toEqual(missing);
    expect(await put(server)).toEqual(missing);
  });

  it("reads the key named by its alias", async () => {
    const server = await serveEndpoint(
      "/items/{item_id}",
      echo({ item_id: p.Path(z.int()), item: p.Json(Item, { embed: true, alias: "the-item" }) }),
      ["PUT"],
    );
    expect(await put(server, '{"the-item":{"name":"Foo","price":1}}')).toEqual({
      status: 200,
      body: { item_id: 5, item: { name: "Foo", price: 1 } },
    });
    expect(await put(server, '{"item":{"name":"Foo","price":1}}')).toEqual({
      status: 422,
      body: { detail: [{ loc: ["body", "the-item"], msg: "Field required", type: "missing", input: null }] },
    });
  });

  it("is a key beside other JSON parameters, whose models still share the top level", async () => {
    const server = await serveEndpoint(
      "/items/{item_id}",
      echo({
        item_id: p.Path(z.int()),
        item: p.Json(Item, { embed: true }),
        user: p.Json(User),
        importance: p.Json(z.int()),
      }),
      ["PUT"],
    );
    expect(await put(server, '{"item":{"name":"Foo","price":1},"username":"dave","importance":5}')).toEqual({
      status: 200,
      body: { item_id: 5, item: { name: "Foo", price: 1 }, user: { username: "dave" }, importance: 5 },
    });
    expect(await put(server, '{"name":"Foo","price":1,"username":"dave","importance":5}')).toEqual({
      status: 422,
      body: { detail: [{ loc: ["body", "item"], msg: "Field required", type: "missing", input: null }] },
    });
  });

  it("leaves an optional embedded model undefined when its key is not sent", async () => {
    const server = await serveEndpoint(
      "/items/{item_id}",
      echo({ item_id: p.Path(z.int()), item: p.Json(Item.optional(), { embed: true }) }),
      ["PUT"],
    );
    expect(await put(server, "{}")).toEqual({ status: 200, body: { item_id: 5 } });
    expect(await put(server)).toEqual({ status: 200, body: { item_id: 5 } });
  });

  it("reads a value with no fixed fields from its key, where it may share the body", async () => {
    const Pet = z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("cat"), lives: z.int() }),
      z.object({ kind: z.literal("dog"), good: z.boolean() }),
    ]);
    const server = await serveEndpoint(
      "/items/{item_id}",
      echo({ item_id: p.Path(z.int()), pet: p.Json(Pet, { embed: true }), note: p.Json(z.string()) }),
      ["PUT"],
    );
    expect(await put(server, '{"pet":{"kind":"cat","lives":9},"note":"n"}')).toEqual({
      status: 200,
      body: { item_id: 5, pet: { kind: "cat", lives: 9 }, note: "n" },
    });
    expect(await put(server, '{"kind":"cat","lives":9,"note":"n"}')).toEqual({
      status: 422,
      body: { detail: [{ loc: ["body", "pet"], msg: "Field required", type: "missing", input: null }] },
    });
  });

  it("gives an embedded model the marker's default when its key is not sent", async () => {
    const server = await serveEndpoint(
      "/items/{item_id}",
      echo({
        item_id: p.Path(z.int()),
        item: p.Json(Item, { embed: true, default: { name: "Nothing", price: 0 } }),
      }),
      ["PUT"],
    );
    expect(await put(server, "{}")).toEqual({
      status: 200,
      body: { item_id: 5, item: { name: "Nothing", price: 0 } },
    });
  });

  it("keeps a strict model's refusal of extras inside its key, and leaves the body's other keys alone", async () => {
    const server = await serveEndpoint(
      "/items/{item_id}",
      echo({ item_id: p.Path(z.int()), item: p.Json(z.strictObject({ name: z.string() }), { embed: true }) }),
      ["PUT"],
    );
    expect(await put(server, '{"item":{"name":"Foo"},"other":1}')).toEqual({
      status: 200,
      body: { item_id: 5, item: { name: "Foo" } },
    });
    expect(await put(server, '{"item":{"name":"Foo","extra":1}}')).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["body", "item", "extra"],
            msg: 'Unrecognized key: "extra"',
            type: "unrecognized_keys",
            input: 1,
          },
        ],
      },
    });
  });
});
