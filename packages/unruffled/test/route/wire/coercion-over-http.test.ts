import { createApp } from "unruffled";
import { p, path } from "unruffled/route";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { echo } from "../../support/echo.ts";
import { jsonOf, serveEndpoint } from "../../support/serve.ts";

// The 422 to a query's page that is no number, as a number refuses it (nullable or not).
function pageIsNoNumber(input: string) {
  const issue = {
    loc: ["query", "page"],
    msg: "Invalid input: expected number, received string",
    type: "invalid_type",
  };
  return { status: 422, body: { detail: [{ ...issue, input }] } };
}

describe("string sources are coerced to the declared type before validation", () => {
  it("turns ?page=2 into the number 2", async () => {
    const server = await serveEndpoint(
      "/c",
      echo({ page: p.Query(z.int()), ratio: p.Query(z.number(), { default: 1 }) }),
    );
    expect(await jsonOf(server.fetch("/c?page=2&ratio=-1.5e1"))).toEqual({
      status: 200,
      body: { page: 2, ratio: -15 },
    });
  });

  it.each([
    ["true", true],
    ["false", false],
    ["1", true],
    ["0", false],
    ["yes", true],
    ["no", false],
    ["on", true],
    ["off", false],
    ["TRUE", true],
    ["Off", false],
  ])("reads the boolean spelling %s as %s", async (spelling, expected) => {
    const server = await serveEndpoint("/c", echo({ flag: p.Query(z.boolean()) }));
    expect(await jsonOf(server.fetch(`/c?flag=${spelling}`))).toEqual({
      status: 200,
      body: { flag: expected },
    });
  });

  it.each(["maybe", "", "2", "t"])(
    "refuses the boolean spelling %j instead of using truthiness",
    async (spelling) => {
      const server = await serveEndpoint("/c", echo({ flag: p.Query(z.boolean()) }));
      expect(await jsonOf(server.fetch(`/c?flag=${spelling}`))).toEqual({
        status: 422,
        body: {
          detail: [
            {
              loc: ["query", "flag"],
              msg: "Invalid input: expected boolean, received string",
              type: "invalid_type",
              input: spelling,
            },
          ],
        },
      });
    },
  );

  it.each(["abc", "", "0x10", "NaN", "Infinity", "1,5", " 2", "1e400", "-1e309"])(
    "leaves %j a string so that Zod reports it",
    async (raw) => {
      const server = await serveEndpoint("/c", echo({ page: p.Query(z.int()) }));
      expect(await jsonOf(server.fetch(`/c?page=${encodeURIComponent(raw)}`))).toEqual(pageIsNoNumber(raw));
    },
  );

  // A spelling past the largest double would be Infinity: JSON writes it null, as if it were absent.
  it("quotes a number too large for a double as sent, not as null", async () => {
    const server = await serveEndpoint("/c", echo({ price: p.Query(z.number()) }));
    const huge = `1${"0".repeat(400)}`;
    expect(await jsonOf(server.fetch(`/c?price=${huge}`))).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["query", "price"],
            msg: "Invalid input: expected number, received string",
            type: "invalid_type",
            input: huge,
          },
        ],
      },
    });
  });

  it("refuses a decimal where an int is declared", async () => {
    const server = await serveEndpoint("/c", echo({ page: p.Query(z.int()) }));
    expect(await jsonOf(server.fetch("/c?page=1.5"))).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["query", "page"],
            msg: "Invalid input: expected int, received number",
            type: "invalid_type",
            input: 1.5,
          },
        ],
      },
    });
  });

  it("coerces each item of a list", async () => {
    const server = await serveEndpoint("/c", echo({ ids: p.Query(z.array(z.int())) }));
    expect(await jsonOf(server.fetch("/c?ids=1&ids=2&ids=3"))).toEqual({
      status: 200,
      body: { ids: [1, 2, 3] },
    });
  });

  it("reports the bad item of a list by its index", async () => {
    const server = await serveEndpoint("/c", echo({ ids: p.Query(z.array(z.int())) }));
    expect(await jsonOf(server.fetch("/c?ids=1&ids=x"))).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["query", "ids", 1],
            msg: "Invalid input: expected number, received string",
            type: "invalid_type",
            input: "x",
          },
        ],
      },
    });
  });

  it("coerces numeric enums and literals, and keeps string enums as strings", async () => {
    const server = await serveEndpoint(
      "/c",
      echo({
        level: p.Query(z.literal([1, 2, 3])),
        order: p.Query(z.enum(["asc", "desc"])),
        mode: p.Query(z.union([z.literal("auto"), z.int()])),
      }),
    );
    expect(await jsonOf(server.fetch("/c?level=2&order=desc&mode=auto"))).toEqual({
      status: 200,
      body: { level: 2, order: "desc", mode: "auto" },
    });
    expect(await jsonOf(server.fetch("/c?level=3&order=asc&mode=7"))).toEqual({
      status: 200,
      body: { level: 3, order: "asc", mode: 7 },
    });
  });

  it("keeps a declared string value a string even when it spells a number or a boolean", async () => {
    const server = await serveEndpoint(
      "/c",
      echo({
        grade: p.Query(z.enum(["1", "2"])),
        code: p.Query(z.union([z.literal(1), z.literal("01")])),
        strict: p.Query(z.union([z.literal(false), z.literal("maybe")])),
        on: p.Query(z.literal(true)),
      }),
    );
    expect(await jsonOf(server.fetch("/c?grade=1&code=01&strict=maybe&on=TRUE"))).toEqual({
      status: 200,
      body: { grade: "1", code: "01", strict: "maybe", on: true },
    });
    expect(await jsonOf(server.fetch("/c?grade=2&code=1&strict=no&on=yes"))).toEqual({
      status: 200,
      body: { grade: "2", code: 1, strict: false, on: true },
    });
  });

  it("coerces path, header, cookie and form values the same way", async () => {
    const server = await serveEndpoint(
      "/c/{id}",
      echo({
        id: p.Path(z.int()),
        x_count: p.Header(z.int()),
        seen: p.Cookie(z.boolean()),
        age: p.Form(z.int()),
      }),
      ["POST"],
    );
    const response = server.fetch("/c/5", {
      method: "POST",
      headers: { "x-count": "3", cookie: "seen=yes" },
      body: new URLSearchParams({ age: "42" }),
    });
    expect(await jsonOf(response)).toEqual({ status: 200, body: { id: 5, x_count: 3, seen: true, age: 42 } });
  });
});

describe("rule 9: a bare schema's source is detected", () => {
  it("reads a scalar named like a placeholder from the path", async () => {
    const server = await serveEndpoint("/students/{id}", echo({ id: z.int() }));
    expect(await jsonOf(server.fetch("/students/3"))).toEqual({ status: 200, body: { id: 3 } });
  });

  it("reads an enum or a boolean named like a placeholder from the path", async () => {
    const server = await serveEndpoint(
      "/books/{order}/{archived}",
      echo({ order: z.enum(["asc", "desc"]), archived: z.boolean() }),
    );
    expect(await jsonOf(server.fetch("/books/desc/off?order=asc&archived=on"))).toEqual({
      status: 200,
      body: { order: "desc", archived: false },
    });
  });

  it("reads any other scalar, and a list, from the query", async () => {
    const server = await serveEndpoint(
      "/students",
      echo({ page: z.int(), active: z.boolean().optional(), tag: z.array(z.string()) }),
    );
    expect(await jsonOf(server.fetch("/students?page=2&tag=x"))).toEqual({
      status: 200,
      body: { page: 2, tag: ["x"] },
    });
  });

  it("reads a model from the JSON body", async () => {
    const server = await serveEndpoint("/bind", echo({ body: z.object({ student_id: z.int() }) }), ["POST"]);
    const response = server.fetch("/bind", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"student_id":9}',
    });
    expect(await jsonOf(response)).toEqual({ status: 200, body: { body: { student_id: 9 } } });
  });
});

// TypeScript enums as the objects they compile to, reverse mappings included (this project's
// erasableSyntaxOnly forbids `enum` itself).
const Level = { Low: 1, High: 2, 1: "Low", 2: "High" } as const;
const Mixed = { Auto: "auto", Two: 2, 2: "Two" } as const;

describe("audit: docs/validation.md, enums of an enum-like object (a TypeScript enum)", () => {
  it("reads a numeric member as its number and keeps a string member a string, refusing a member's name", async () => {
    const server = await serveEndpoint(
      "/c",
      echo({ level: p.Query(z.enum(Level).optional()), mixed: p.Query(z.enum(Mixed).optional()) }),
    );
    expect(await jsonOf(server.fetch("/c?level=2&mixed=2"))).toEqual({
      status: 200,
      body: { level: 2, mixed: 2 },
    });
    expect(await jsonOf(server.fetch("/c?mixed=auto"))).toEqual({ status: 200, body: { mixed: "auto" } });
    expect(await jsonOf(server.fetch("/c?level=Low"))).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["query", "level"],
            msg: "Invalid option: expected one of 1|2",
            type: "invalid_value",
            input: "Low",
          },
        ],
      },
    });
  });
});

// FastAPI's tests/test_path.py, test_query.py, test_multi_query_errors.py and the parameter
// tutorials, where no test above holds the same rule. Messages and types are Zod's (docs/validation.md).
describe("FastAPI's parameter tests, as unruffled reads them", () => {
  it("keeps a z.string() value as sent, even when it spells a number or a boolean", async () => {
    const server = await serveEndpoint(
      "/s/{item_id}",
      echo({ item_id: p.Path(z.string()), q: p.Query(z.string()) }),
    );
    expect(await jsonOf(server.fetch("/s/42?q=True"))).toEqual({
      status: 200,
      body: { item_id: "42", q: "True" },
    });
  });

  it("reads a z.number() placeholder as a whole or a decimal number, and refuses a word", async () => {
    const server = await serveEndpoint("/f/{item_id}", echo({ item_id: p.Path(z.number()) }));
    expect(await jsonOf(server.fetch("/f/42"))).toEqual({ status: 200, body: { item_id: 42 } });
    expect(await jsonOf(server.fetch("/f/42.5"))).toEqual({ status: 200, body: { item_id: 42.5 } });
    expect(await jsonOf(server.fetch("/f/True"))).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["path", "item_id"],
            msg: "Invalid input: expected number, received string",
            type: "invalid_type",
            input: "True",
          },
        ],
      },
    });
  });

  it("requires a nullable value without a default, and ignores a key no parameter declares", async () => {
    const server = await serveEndpoint("/q", echo({ q: p.Query(z.string().nullable(), { minLength: 3 }) }));
    expect(await jsonOf(server.fetch("/q?not_declared=baz"))).toEqual({
      status: 422,
      body: { detail: [{ loc: ["query", "q"], msg: "Field required", type: "missing", input: null }] },
    });
    expect(await jsonOf(server.fetch("/q?q=foo&not_declared=baz"))).toEqual({
      status: 200,
      body: { q: "foo" },
    });
  });

  it("gives null for an absent nullable value whose default is null, and the text null as a string", async () => {
    const server = await serveEndpoint("/q", echo({ q: p.Query(z.string().nullable(), { default: null }) }));
    expect(await jsonOf(server.fetch("/q"))).toEqual({ status: 200, body: { q: null } });
    expect(await jsonOf(server.fetch("/q?q=null"))).toEqual({ status: 200, body: { q: "null" } });
  });

  it("reports every bad item of a list, each by its index", async () => {
    const server = await serveEndpoint("/items", echo({ q: p.Query(z.array(z.int()).optional()) }));
    expect(await jsonOf(server.fetch("/items?q=5&q=6"))).toEqual({ status: 200, body: { q: [5, 6] } });
    expect(await jsonOf(server.fetch("/items?q=five&q=six"))).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["query", "q", 0],
            msg: "Invalid input: expected number, received string",
            type: "invalid_type",
            input: "five",
          },
          {
            loc: ["query", "q", 1],
            msg: "Invalid input: expected number, received string",
            type: "invalid_type",
            input: "six",
          },
        ],
      },
    });
  });

  it("answers a refinement's failure with its own message, type custom (FastAPI's AfterValidator)", async () => {
    const validId = z
      .string()
      .refine((id) => /^(isbn|imdb)-/.test(id), 'Invalid ID format, it must start with "isbn-" or "imdb-"');
    const server = await serveEndpoint("/items", echo({ id: p.Query(validId.optional()) }));
    expect(await jsonOf(server.fetch("/items?id=isbn-9781529046137"))).toEqual({
      status: 200,
      body: { id: "isbn-9781529046137" },
    });
    expect(await jsonOf(server.fetch("/items?id=wtf-yes"))).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["query", "id"],
            msg: 'Invalid ID format, it must start with "isbn-" or "imdb-"',
            type: "custom",
            input: "wtf-yes",
          },
        ],
      },
    });
  });
});

// Three ways to write a schema that may be null, which a value read from text reads alike.
const NULLABLE_WAYS = {
  "….nullable()": (schema: z.ZodType) => schema.nullable(),
  "z.union([…, z.null()])": (schema: z.ZodType) => z.union([schema, z.null()]),
  "z.union([…, z.literal(null)])": (schema: z.ZodType) => z.union([schema, z.literal(null)]),
};

describe("a text parameter that may be null, written as a union with z.null() or z.literal(null), reads as .nullable() does", () => {
  const ways = NULLABLE_WAYS;
  const endpointOf = (orNull: (schema: z.ZodType) => z.ZodType) =>
    echo({
      q: p.Query(orNull(z.string()), { minLength: 1 }),
      page: p.Query(orNull(z.int()), { default: null }),
      x_tag: p.Header(orNull(z.string()), { default: null }),
      session: p.Cookie(orNull(z.string()), { default: null }),
      age: p.Form(orNull(z.int()), { default: null }),
    });

  it.each(Object.entries(ways))(
    "%s: the same answers for absent and present values",
    async (_way, orNull) => {
      const server = await serveEndpoint("/n", endpointOf(orNull), ["POST"]);
      const post = (
        target: string,
        headers: Record<string, string> = {},
        form: Record<string, string> = {},
      ) => jsonOf(server.fetch(target, { method: "POST", headers, body: new URLSearchParams(form) }));
      expect(await post("/n")).toEqual({
        status: 422,
        body: { detail: [{ loc: ["query", "q"], msg: "Field required", type: "missing", input: null }] },
      });
      expect(await post("/n?q=null")).toEqual({
        status: 200,
        body: { q: "null", page: null, x_tag: null, session: null, age: null },
      });
      expect(await post("/n?q=a&page=2", { "x-tag": "t", cookie: "session=s" }, { age: "42" })).toEqual({
        status: 200,
        body: { q: "a", page: 2, x_tag: "t", session: "s", age: 42 },
      });
      expect(await post("/n?q=a&page=two")).toEqual(pageIsNoNumber("two"));
    },
  );

  it("documents the three ways with the same parameter and form schemas", () => {
    const [nullable, union, literalUnion] = Object.values(ways).map(
      (orNull) =>
        (
          createApp({
            routes: [path("/n", { endpoint: endpointOf(orNull), methods: ["POST"] })],
          }).openapi() as any
        ).paths["/n"].post,
    );
    expect(union.parameters).toEqual(nullable.parameters);
    expect(union.requestBody).toEqual(nullable.requestBody);
    expect(literalUnion.parameters).toEqual(nullable.parameters);
    expect(literalUnion.requestBody).toEqual(nullable.requestBody);
    expect(nullable.parameters.map((parameter: any) => [parameter.name, parameter.schema])).toEqual([
      ["q", { type: "string", minLength: 1 }],
      ["page", { type: "integer", default: null, minimum: -9007199254740991, maximum: 9007199254740991 }],
      ["x-tag", { type: "string", default: null }],
      ["session", { type: "string", default: null }],
    ]);
  });
});

describe("a field that may be null, in a model read from text, reads as .nullable() does whichever way it is written", () => {
  const ways = NULLABLE_WAYS;
  // Strict and refined, with a field's alias and description: a rebuilt model keeps them all.
  const modelOf = (orNull: (schema: z.ZodType) => z.ZodType) =>
    z
      .strictObject({
        page: orNull(z.int()).default(null),
        tag: orNull(z.string()).optional().meta({ alias: "the-tag", description: "A tag" }),
      })
      .refine((filter) => filter.page !== 13, { message: "Page 13 is skipped" });
  const endpointOf = (orNull: (schema: z.ZodType) => z.ZodType) => echo({ filter: p.Query(modelOf(orNull)) });

  it.each(Object.entries(ways))("%s: the same answers", async (_way, orNull) => {
    const server = await serveEndpoint("/m", endpointOf(orNull));
    const get = (target: string) => jsonOf(server.fetch(target));
    expect(await get("/m")).toEqual({ status: 200, body: { filter: { page: null } } });
    expect(await get("/m?page=2&the-tag=a")).toEqual({
      status: 200,
      body: { filter: { page: 2, tag: "a" } },
    });
    expect(await get("/m?page=two")).toEqual(pageIsNoNumber("two"));
    expect(await get("/m?page=13")).toEqual({
      status: 422,
      body: { detail: [{ loc: ["query"], msg: "Page 13 is skipped", type: "custom", input: { page: 13 } }] },
    });
    expect(await get("/m?size=1")).toEqual({
      status: 422,
      body: {
        detail: [
          { loc: ["query", "size"], msg: 'Unrecognized key: "size"', type: "unrecognized_keys", input: "1" },
        ],
      },
    });
  });

  it("documents the three ways with the same parameters", () => {
    const [nullable, union, literalUnion] = Object.values(ways).map(
      (orNull) =>
        (createApp({ routes: [path("/m", { endpoint: endpointOf(orNull) })] }).openapi() as any).paths["/m"]
          .get,
    );
    expect(union.parameters).toEqual(nullable.parameters);
    expect(literalUnion.parameters).toEqual(nullable.parameters);
    expect(nullable.parameters[1]).toEqual({
      name: "the-tag",
      in: "query",
      required: false,
      schema: { type: "string", description: "A tag" },
      description: "A tag",
    });
  });

  it("keeps a lone parameter's description on the union under .optional(), as on .nullable()", () => {
    const [nullable, union] = [z.string().nullable(), z.union([z.string(), z.null()])].map(
      (schema) =>
        (
          createApp({
            routes: [
              path("/m", { endpoint: echo({ q: p.Query(schema.optional().meta({ description: "Q" })) }) }),
            ],
          }).openapi() as any
        ).paths["/m"].get.parameters,
    );
    expect(union).toEqual(nullable);
    expect(union[0].description).toBe("Q");
  });

  it("leaves a model with an id of its own as declared: its document names that schema", async () => {
    const Filter = z.object({ page: z.union([z.int(), z.null()]).default(null) }).meta({ id: "Filter" });
    const server = await serveEndpoint("/m", echo({ filter: p.Query(Filter) }));
    expect(await jsonOf(server.fetch("/m?page=two"))).toEqual({
      status: 422,
      body: {
        detail: [{ loc: ["query", "page"], msg: "Invalid input", type: "invalid_union", input: "two" }],
      },
    });
  });
});
