import { createApp, TypeHintRequired, UnruffledError, ValueError } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { describe, expect, it } from "vitest";
import { z } from "zod";

/** Builds an app with one endpoint named "probe" at `routePath`; returns what building raised. */
function buildError(
  params: Record<string, unknown>,
  routePath = "/probe",
  extra: Record<string, unknown> = {},
): unknown {
  const probe = endpoint({
    params: params as never,
    returns: JsonResponse,
    handler: () => new JsonResponse(null),
    ...extra,
  });
  try {
    createApp({ routes: [path(routePath, { endpoint: probe, name: "probe" })] });
  } catch (error) {
    return error;
  }
  throw new Error("building the app raised nothing");
}

const label = 'endpoint "probe" (GET /probe)';

describe("definition errors are classes of one base", () => {
  it("exports ValueError and TypeHintRequired as subclasses of UnruffledError", () => {
    expect(new ValueError("x")).toBeInstanceOf(UnruffledError);
    expect(new TypeHintRequired("x")).toBeInstanceOf(UnruffledError);
    expect(new ValueError("x")).toBeInstanceOf(Error);
  });
});

describe("rule 2: a Path parameter needs its placeholder", () => {
  it("raises ValueError when the route is built", () => {
    const error = buildError({ student_id: p.Path(z.int()) });
    expect(error).toBeInstanceOf(ValueError);
    expect((error as Error).message).toBe(
      `${label}, parameter "student_id" is read from the path, but the route path "/probe" has no placeholder {student_id}. Add {student_id} to the path, or read the value from another source such as p.Query.`,
    );
  });

  it("checks each field of a path model", () => {
    const error = buildError({ ids: p.Path(z.object({ a: z.int(), b: z.int() })) }, "/probe/{a}");
    expect(error).toBeInstanceOf(ValueError);
    expect((error as Error).message).toBe(
      `endpoint "probe" (GET /probe/{a}), parameter "ids" has the path field "b", but the route path "/probe/{a}" has no placeholder {b}. Add {b} to the path, or read the value from another source such as p.Query.`,
    );
  });

  it("accepts a placeholder that a group prefix declares", () => {
    const probe = endpoint({
      params: { school: p.Path(z.string()) },
      returns: JsonResponse,
      handler: () => new JsonResponse(null),
    });
    expect(() =>
      createApp({
        routes: [path("/schools/{school}", { routes: [path("/students", { endpoint: probe })] })],
      }),
    ).not.toThrow();
  });
});

describe("rule 11: a bare default is rejected", () => {
  it("rejects a plain value instead of a schema", () => {
    const error = buildError({ page: 1 });
    expect(error).toBeInstanceOf(ValueError);
    expect((error as Error).message).toBe(
      `${label}, parameter "page" is a bare default (1), not a schema. Declare the type with a marker and give the default there: page: p.Query(z.int(), { default: 1 }).`,
    );
  });

  it("rejects a bare schema that carries a default", () => {
    const error = buildError({ page: z.int().default(1) });
    expect(error).toBeInstanceOf(ValueError);
    expect((error as Error).message).toBe(
      `${label}, parameter "page" is a bare schema with a default. Give the default with a marker: page: p.Query(z.int(), { default: … }).`,
    );
  });

  it("rejects a marker default that its own constraints refuse", () => {
    const error = buildError({ page: p.Query(z.int(), { default: 0, ge: 1 }) });
    expect(error).toBeInstanceOf(ValueError);
    expect((error as Error).message).toBe(
      `${label}, parameter "page": the default 0 does not satisfy the parameter's own schema (Too small: expected number to be >=1).`,
    );
  });
});

describe("a File parameter's maxSize lowers LIMITS.file_size, never raises it", () => {
  const build = (maxSize: number, settings: Record<string, unknown> = {}) => {
    const upload = endpoint({
      params: { report: p.File({ maxSize }) },
      returns: JsonResponse,
      handler: () => new JsonResponse(null),
    });
    try {
      createApp({ settings, routes: [path("/up", { endpoint: upload, methods: ["POST"], name: "up" })] });
      return "built";
    } catch (error) {
      return error instanceof ValueError ? error.message : error;
    }
  };
  const refused = (maxSize: number, limit: number) =>
    `endpoint "up" (POST /up), parameter "report": maxSize ${maxSize} must be a positive whole number of bytes no larger than the app's LIMITS.file_size (${limit}).`;

  it("refuses, when the app is built, a maxSize above the limit, or one that is not a positive whole number", () => {
    expect([
      build(10 * 1024 * 1024),
      build(10 * 1024 * 1024 + 1),
      build(2000, { LIMITS: { file_size: 1000 } }),
      build(0),
      build(1.5),
    ]).toEqual([
      "built",
      refused(10 * 1024 * 1024 + 1, 10 * 1024 * 1024),
      refused(2000, 1000),
      refused(0, 10 * 1024 * 1024),
      refused(1.5, 10 * 1024 * 1024),
    ]);
  });
});

describe("rule 12: Json and Form in one endpoint are rejected", () => {
  it("rejects p.Json beside p.Form", () => {
    const error = buildError({ body: p.Json(z.object({ a: z.int() })), name: p.Form(z.string()) });
    expect(error).toBeInstanceOf(ValueError);
    expect((error as Error).message).toBe(
      `${label}: parameters "body" (p.Json) and "name" (p.Form) read the body in two formats. An endpoint reads a JSON body or a form, not both: use p.Json for every body parameter, or p.Form/p.File for all of them.`,
    );
  });

  it("rejects an auto-detected Json model beside p.Form", () => {
    const error = buildError({ body: z.object({ a: z.int() }), name: p.Form(z.string()) });
    expect(error).toBeInstanceOf(ValueError);
    expect((error as Error).message).toBe(
      `${label}: parameters "body" (a model, detected as Json) and "name" (p.Form) read the body in two formats. An endpoint reads a JSON body or a form, not both: use p.Json for every body parameter, or p.Form/p.File for all of them.`,
    );
  });

  it("rejects p.Json beside p.File", () => {
    const error = buildError({ body: p.Json(z.object({ a: z.int() })), avatar: p.File() });
    expect(error).toBeInstanceOf(ValueError);
    expect((error as Error).message).toContain(
      `parameters "body" (p.Json) and "avatar" (p.File) read the body in two formats.`,
    );
  });
});

describe("rule 13: a parameter needs a schema and an endpoint needs returns", () => {
  it("raises TypeHintRequired for a marker without schema", () => {
    const error = buildError({ page: (p.Query as (schema?: unknown) => unknown)() });
    expect(error).toBeInstanceOf(TypeHintRequired);
    expect((error as Error).message).toBe(
      `${label}, parameter "page" has no schema. Give its type to the marker: page: p.Query(z.string()).`,
    );
  });

  it("raises TypeHintRequired for an undefined parameter", () => {
    const error = buildError({ page: undefined });
    expect(error).toBeInstanceOf(TypeHintRequired);
    expect((error as Error).message).toBe(
      `${label}, parameter "page" has no schema. Give its type with a marker: page: p.Query(z.string()).`,
    );
  });

  it("raises ValueError for an endpoint without a handler, or whose handler is not a function", () => {
    for (const handler of [undefined, "list_items"]) {
      const error = buildError({}, "/probe", { handler });
      expect(error).toBeInstanceOf(ValueError);
      expect((error as Error).message).toBe(
        `${label} has no handler. Give it the function that answers: handler: (request, params) => new JsonResponse(…).`,
      );
    }
  });

  it("raises TypeHintRequired for an endpoint without returns", () => {
    const error = buildError({}, "/probe", { returns: undefined });
    expect(error).toBeInstanceOf(TypeHintRequired);
    expect((error as Error).message).toBe(
      `${label} has no returns. Declare what it answers: returns: JsonResponse, or returns: [p.ResponseSpec({ model: MyResponse })].`,
    );
  });
});

describe("rule 14: unsupported parameter types are rejected", () => {
  const supported =
    "supported types are string, number, int, boolean, date, enum, literals of strings, numbers and booleans, arrays of those, z.object models, and files (p.File)";

  it.each([
    // Text never carries these values: every request would get a 422 (or never send the parameter).
    ["a literal undefined", p.Query(z.literal(undefined)), "literal undefined"],
    ["a literal big integer", p.Query(z.literal(5n)), "literal 5n"],
    ["a literal with null among its values", p.Query(z.literal([1, null])), "literal 1 | null"],
    ["a list of literal nulls", p.Query(z.array(z.literal(null))), "array of literal null"],
    [
      "a model with a literal null field from the query",
      p.Query(z.object({ none: z.literal(null) })),
      'object with a field "none" of type literal null',
    ],
    ["a record", p.Query(z.record(z.string(), z.int())), "record"],
    ["a big integer", p.Query(z.bigint()), "bigint"],
    [
      "a union of models from the query",
      p.Query(z.union([z.object({ a: z.int() }), z.object({ b: z.int() })])),
      "union of models",
    ],
    ["a list of models from the query", p.Query(z.array(z.object({ a: z.int() }))), "array of object"],
    // What FastAPI reads from text and unruffled does not (docs/from-fastapi.md, "What differs").
    ["a set (FastAPI's set[int])", p.Query(z.set(z.int())), "set"],
    ["an untyped list (FastAPI's list)", p.Query(z.array(z.unknown())), "array of unknown"],
    ["a list of any value", p.Query(z.array(z.any())), "array of any"],
    ["a tuple (FastAPI's tuple[int, int])", p.Query(z.tuple([z.int(), z.int()])), "tuple"],
    [
      "a model with a nested model from the query",
      p.Query(z.object({ inner: z.object({ a: z.int() }) })),
      'object with a field "inner" of type object',
    ],
  ])("rejects %s naming the parameter and the supported types", (_name, declaration, typeName) => {
    const error = buildError({ value: declaration });
    expect(error).toBeInstanceOf(ValueError);
    const marker = (declaration as { kind: string }).kind === "json" ? "p.Json" : "p.Query";
    expect((error as Error).message).toBe(
      `${label}, parameter "value" has an unsupported type ${typeName} for ${marker}; ${supported}.`,
    );
  });

  // The rule changed: a union with z.literal(null) was refused here; it is z.null()'s value, so it
  // reads as the literal's .nullable(), as a union with z.null() does (coercion-over-http.test.ts).
  it("accepts a union with a literal null, read as the .nullable() it means", () => {
    const build = (value: z.ZodType) =>
      createApp({
        routes: [
          path("/probe", {
            endpoint: endpoint({
              params: { value: p.Query(value) },
              returns: JsonResponse,
              handler: () => new JsonResponse(null),
            }),
          }),
        ],
      }).openapi() as { paths: Record<string, { get: { parameters: unknown } }> };
    const asUnion = build(z.union([z.literal("a"), z.literal(null)]));
    expect(asUnion.paths["/probe"]!.get.parameters).toEqual(
      build(z.literal("a").nullable()).paths["/probe"]!.get.parameters,
    );
  });

  // No text carries JSON's null: the refusal says what reads an absent value instead.
  const absentInstead = (marker: string) =>
    `For a value that may be left out, declare value: ${marker}(z.string().optional()), undefined when absent, or value: ${marker}(z.string().nullable(), { default: null }), null when absent.`;
  it.each([
    ["z.null() from the query", p.Query(z.null()), "null", "p.Query", "a query string"],
    ["z.literal(null) from the query", p.Query(z.literal(null)), "literal null", "p.Query", "a query string"],
    ["a union of only null", p.Query(z.union([z.null()])), "union of null", "p.Query", "a query string"],
    [
      "a union of null and literal null",
      p.Query(z.union([z.null(), z.literal(null)])),
      "union of null | literal null",
      "p.Query",
      "a query string",
    ],
    ["an optional null", p.Query(z.null().optional()), "null", "p.Query", "a query string"],
    ["z.null() from a header", p.Header(z.null()), "null", "p.Header", "a header"],
    ["z.literal(null) from a cookie", p.Cookie(z.literal(null)), "literal null", "p.Cookie", "a cookie"],
    ["z.null() from a form", p.Form(z.null()), "null", "p.Form", "a form field"],
  ])(
    "rejects %s, which can only be null, saying what to declare instead",
    (_name, declaration, typeName, marker, source) => {
      const error = buildError({ value: declaration });
      expect(error).toBeInstanceOf(ValueError);
      expect((error as Error).message).toBe(
        `${label}, parameter "value" has an unsupported type ${typeName} for ${marker}: ${source} holds text, never JSON's null (every request would get a 422). ${absentInstead(marker)}`,
      );
    },
  );

  it("rejects a path parameter that can only be null, naming the type to declare", () => {
    const error = buildError({ value: p.Path(z.literal(null)) }, "/probe/{value}");
    expect(error).toBeInstanceOf(ValueError);
    expect((error as Error).message).toBe(
      'endpoint "probe" (GET /probe/{value}), parameter "value" has an unsupported type literal null for p.Path: a path holds text, never JSON\'s null (every request would get a 422). Declare what the placeholder holds: value: p.Path(z.string()).',
    );
  });

  it("rejects a bare unsupported schema", () => {
    const error = buildError({ value: z.bigint() });
    expect(error).toBeInstanceOf(ValueError);
    expect((error as Error).message).toBe(
      `${label}, parameter "value" has an unsupported type bigint; ${supported}.`,
    );
  });

  it("rejects minLength on a number, the page's example of a constraint that does not fit", () => {
    const error = buildError({ page: p.Query(z.int(), { minLength: 1 } as never) });
    expect(error).toBeInstanceOf(ValueError);
    expect((error as Error).message).toBe(
      `${label}, parameter "page": the option minLength applies to strings and lists, not to number.`,
    );
  });

  it("rejects a constraint that does not fit the type", () => {
    const error = buildError({ name: p.Query(z.string(), { ge: 1 }) });
    expect(error).toBeInstanceOf(ValueError);
    expect((error as Error).message).toBe(
      `${label}, parameter "name": the option ge applies to numbers, not to string.`,
    );
  });
});

describe("rule 10: a marker option the framework does not know is refused, not ignored", () => {
  const options =
    "default, alias, title, description, example, examples, deprecated, ge, gt, le, lt, multipleOf, minLength, maxLength, pattern, embed";

  it("refuses FastAPI's spelling of a constraint, naming the option to write instead", () => {
    const error = buildError({ q: p.Query(z.string(), { min_length: 3 } as never) });
    expect(error).toBeInstanceOf(ValueError);
    expect((error as Error).message).toBe(
      `${label}, parameter "q" has no option "min_length" (write "minLength"); the options are ${options}.`,
    );
  });

  it("refuses an option no marker has, such as FastAPI's include_in_schema", () => {
    const error = buildError({
      hidden: p.Query(z.string().optional(), { include_in_schema: false } as never),
    });
    expect(error).toBeInstanceOf(ValueError);
    expect((error as Error).message).toBe(
      `${label}, parameter "hidden" has no option "include_in_schema"; the options are ${options}.`,
    );
  });
});

describe("embed reads a JSON body's key: refused on every other marker", () => {
  it("refuses embed on p.Query, p.Form and p.Header, naming p.Json", () => {
    for (const [declared, marker] of [
      [p.Query(z.object({ page: z.int() }), { embed: true } as never), "p.Query"],
      [p.Form(z.object({ name: z.string() }), { embed: true } as never), "p.Form"],
      [p.Header(z.string(), { embed: false } as never), "p.Header"],
    ] as const) {
      const error = buildError({ x: declared });
      expect(error).toBeInstanceOf(ValueError);
      expect((error as Error).message).toBe(
        `${label}, parameter "x": the option embed reads a JSON body's key, and applies to p.Json only, not to ${marker}.`,
      );
    }
  });

  it("refuses an embed that is not true or false, which would otherwise read the body as if it were false", () => {
    const error = buildError({ item: p.Json(z.object({ name: z.string() }), { embed: "yes" } as never) });
    expect(error).toBeInstanceOf(ValueError);
    expect((error as Error).message).toBe(
      `${label}, parameter "item": the option embed is true or false, not "yes".`,
    );
  });

  it("refuses an embedded model and another parameter reading the same key", () => {
    const error = buildError({
      item: p.Json(z.object({ name: z.string() }), { embed: true }),
      order: p.Json(z.object({ item: z.string() })),
    });
    expect(error).toBeInstanceOf(ValueError);
    expect((error as Error).message).toBe(
      `${label}: parameters "item" and "order" (field "item") both read the body name "item". Rename one of them or give it an alias.`,
    );
  });
});

describe("rule 15: two parameters of one source may not read the same name", () => {
  it("rejects two models sharing a field", () => {
    const error = buildError({
      a: p.Query(z.object({ page: z.int() })),
      b: p.Query(z.object({ page: z.int() })),
    });
    expect(error).toBeInstanceOf(ValueError);
    expect((error as Error).message).toBe(
      `${label}: parameters "a" (field "page") and "b" (field "page") both read the query name "page". Rename one of them or give it an alias.`,
    );
  });

  it("rejects a model field and a scalar of the same name", () => {
    const error = buildError({ body: p.Json(z.object({ note: z.string() })), note: p.Json(z.string()) });
    expect(error).toBeInstanceOf(ValueError);
    expect((error as Error).message).toBe(
      `${label}: parameters "body" (field "note") and "note" both read the body name "note". Rename one of them or give it an alias.`,
    );
  });

  it("rejects two header names that map to the same header", () => {
    const error = buildError({ x_token: p.Header(z.string()), xToken: p.Header(z.string()) });
    expect(error).toBeInstanceOf(ValueError);
    expect((error as Error).message).toBe(
      `${label}: parameters "x_token" and "xToken" both read the header name "x-token". Rename one of them or give it an alias.`,
    );
  });

  it("allows the same name in two different sources", () => {
    const probe = endpoint({
      params: { id: p.Path(z.int()), id_q: p.Query(z.int(), { alias: "id" }) },
      returns: JsonResponse,
      handler: () => new JsonResponse(null),
    });
    expect(() => createApp({ routes: [path("/probe/{id}", { endpoint: probe })] })).not.toThrow();
  });
});

describe("routes are checked when declared and when the app is built", () => {
  it("rejects a path that does not start with /", () => {
    expect(() => path("probe", { routes: [] })).toThrow(
      new ValueError('The route path "probe" must start with "/".'),
    );
  });

  it("rejects a placeholder that is not a whole segment, and one used twice in a path", () => {
    for (const [routePath, segment] of [
      ["/books/x{book_id}", "x{book_id}"],
      ["/books/{book_id}.json", "{book_id}.json"],
      ["/books/{book-id}", "{book-id}"],
    ]) {
      expect(() => path(routePath!, { routes: [] })).toThrow(
        new ValueError(
          `The route path "${routePath}" has a malformed placeholder "${segment}"; a placeholder is a whole segment such as {student_id}.`,
        ),
      );
    }
    expect(() => path("/books/{id}/pages/{id}", { routes: [] })).toThrow(
      new ValueError('The route path "/books/{id}/pages/{id}" repeats the placeholder {id}.'),
    );
  });

  it("rejects a route with more or fewer than one of endpoint, websocket and routes", () => {
    expect(() => path("/probe", {} as never)).toThrow(
      new ValueError('path("/probe") takes exactly one of endpoint, websocket and routes.'),
    );
  });

  it("rejects an unknown method", () => {
    const probe = endpoint({ returns: JsonResponse, handler: () => new JsonResponse(null) });
    expect(() => path("/probe", { endpoint: probe, methods: ["FETCH"] })).toThrow(
      new ValueError(
        'path("/probe"): unknown method "FETCH"; use one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS.',
      ),
    );
  });

  it("rejects two routes with the same name", () => {
    const probe = endpoint({ returns: JsonResponse, handler: () => new JsonResponse(null) });
    expect(() =>
      createApp({
        routes: [
          path("/a", { endpoint: probe, name: "same" }),
          path("/b", { endpoint: probe, name: "same" }),
        ],
      }),
    ).toThrow(
      new ValueError(
        'The routes GET /a and GET /b share the name (operationId) "same"; give each route its own name.',
      ),
    );
  });
});

describe("two routes may not answer one method at one path", () => {
  const probe = endpoint({ returns: JsonResponse, handler: () => new JsonResponse(null) });

  it("refuses the second route with a ValueError naming both routes, the method and the path", () => {
    let error: unknown;
    try {
      createApp({
        routes: [
          path("/courses", { endpoint: probe, name: "list_courses" }),
          path("/courses", { endpoint: probe, methods: ["POST", "GET"], name: "create_course" }),
        ],
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValueError);
    expect((error as Error).message).toBe(
      'The routes "list_courses" and "create_course" both answer GET /courses; give each route its own path or method.',
    );
  });

  it("refuses two routes of one name on one method and path, naming it once", () => {
    expect(() =>
      createApp({ routes: [path("/a", { endpoint: probe }), path("/a", { endpoint: probe })] }),
    ).toThrow(
      new ValueError('Two routes named "get_a" both answer GET /a; give each route its own path or method.'),
    );
  });

  it("refuses two names for the placeholder at one place of two paths with a ValueError", () => {
    const byId = endpoint({
      params: { id: p.Path(z.int()) },
      returns: JsonResponse,
      handler: () => new JsonResponse(null),
    });
    const byCode = endpoint({
      params: { code: p.Path(z.string()) },
      returns: JsonResponse,
      handler: () => new JsonResponse(null),
    });
    let error: unknown;
    try {
      createApp({
        routes: [
          path("/courses/{id}", { endpoint: byId, name: "get_course" }),
          path("/courses/{code}/students", { endpoint: byCode, name: "list_students" }),
        ],
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValueError);
    expect((error as Error).message).toBe(
      'The placeholder {code} in "/courses/{code}/students" clashes with {id} at the same place of another route; name it the same in both.',
    );
  });
});

describe("a {name:path} placeholder is the last segment of its path (docs/parameters.md, The rest of the path)", () => {
  it("rejects one before the last segment when the route is declared", () => {
    expect(() => path("/files/{file_path:path}/meta", { routes: [] })).toThrow(
      new ValueError(
        'The route path "/files/{file_path:path}/meta" has {file_path:path} before its last segment; a {name:path} placeholder takes the rest of the path, so only the last segment may be one.',
      ),
    );
  });

  it("rejects one that a group prefix puts before the route's own path, when the app is built", () => {
    const probe = endpoint({ returns: JsonResponse, handler: () => new JsonResponse(null) });
    expect(() =>
      createApp({
        routes: [path("/files/{file_path:path}", { routes: [path("/meta", { endpoint: probe })] })],
      }),
    ).toThrow(
      new ValueError(
        'The route path "/files/{file_path:path}/meta" has {file_path:path} before its last segment; a {name:path} placeholder takes the rest of the path, so only the last segment may be one.',
      ),
    );
  });

  it("rejects a convertor other than :path, pointing at the parameter's type", () => {
    expect(() => path("/items/{item_id:int}", { routes: [] })).toThrow(
      new ValueError(
        'The route path "/items/{item_id:int}" has the placeholder "{item_id:int}"; the only convertor is :path ({file_path:path}, the rest of the path). Give the type to the parameter instead: item_id: z.int().',
      ),
    );
  });

  it("rejects two rest placeholders of different names at one place", () => {
    const probe = endpoint({ returns: JsonResponse, handler: () => new JsonResponse(null) });
    expect(() =>
      createApp({
        routes: [
          path("/files/{file_path:path}", { endpoint: probe }),
          path("/files/{name:path}", { endpoint: probe, methods: ["PUT"] }),
        ],
      }),
    ).toThrow(
      new ValueError(
        'The placeholder {name:path} in "/files/{name:path}" clashes with {file_path:path} at the same place of another route; name it the same in both.',
      ),
    );
  });
});

describe("a {name:path} route and a {name} route at one place are one path of the document", () => {
  it("refuses them for one method: the document would keep one operation of the two", () => {
    const probe = endpoint({ returns: JsonResponse, handler: () => new JsonResponse(null) });
    expect(() =>
      createApp({
        routes: [
          path("/files/{name}", { endpoint: probe, name: "one_file" }),
          path("/files/{name:path}", { endpoint: probe, name: "any_file" }),
        ],
      }),
    ).toThrow(
      new ValueError(
        "The routes GET /files/{name} and GET /files/{name:path} are one operation of the OpenAPI document, GET /files/{name}, which cannot tell one segment from the rest of the path; give one of them another path or method, or leave one out of the document (includeInSchema: false).",
      ),
    );
  });

  it("refuses them with placeholders of different names: OpenAPI forbids two templates of one hierarchy", () => {
    const probe = endpoint({ returns: JsonResponse, handler: () => new JsonResponse(null) });
    expect(() =>
      createApp({
        routes: [
          path("/files/{name}", { endpoint: probe, name: "one_file" }),
          path("/files/{rest:path}", { endpoint: probe, name: "any_file", methods: ["PUT"] }),
        ],
      }),
    ).toThrow(
      new ValueError(
        "The routes GET /files/{name} and PUT /files/{rest:path} are the paths /files/{name} and /files/{rest} of the OpenAPI document, which OpenAPI takes for one; name the two placeholders the same, give one of the routes another path, or leave one out of the document (includeInSchema: false).",
      ),
    );
  });

  it("documents them as one path for different methods and one placeholder name", () => {
    const probe = endpoint({ returns: JsonResponse, handler: () => new JsonResponse(null) });
    const app = createApp({
      routes: [
        path("/files/{name}", { endpoint: probe, name: "one_file" }),
        path("/files/{name:path}", { endpoint: probe, name: "any_file", methods: ["PUT"] }),
      ],
    });
    expect(Object.keys((app.openapi().paths as any)["/files/{name}"])).toEqual(["get", "put"]);
  });

  it("serves both when one is left out of the document", () => {
    const probe = endpoint({ returns: JsonResponse, handler: () => new JsonResponse(null) });
    const app = createApp({
      routes: [
        path("/files/{name}", { endpoint: probe, name: "one_file" }),
        path("/files/{rest:path}", { endpoint: probe, name: "any_file", includeInSchema: false }),
      ],
    });
    expect(Object.keys(app.openapi().paths ?? {})).toEqual(["/files/{name}"]);
  });
});

describe("a placeholder that no parameter reads", () => {
  it("refuses a list named like it (rule 9 sends lists to the query): a path placeholder holds one value", () => {
    const error = buildError({ ids: z.array(z.string()) }, "/probe/{ids}");
    expect(error).toBeInstanceOf(ValueError);
    expect((error as Error).message).toBe(
      'endpoint "probe" (GET /probe/{ids}), parameter "ids" is a list, named like the placeholder {ids} of the route path "/probe/{ids}", which holds one value: a list is read from the query, and the placeholder would be read by nothing. Declare one value (ids: z.string()) to read the placeholder, or rename the parameter to read a list from the query.',
    );
  });

  it("refuses another parameter named like it that reads another source", () => {
    const error = buildError({ ids: p.Query(z.string()) }, "/probe/{ids}");
    expect(error).toBeInstanceOf(ValueError);
    expect((error as Error).message).toBe(
      'endpoint "probe" (GET /probe/{ids}), parameter "ids" reads the query, but it is named like the placeholder {ids} of the route path "/probe/{ids}", which no parameter reads. Read the placeholder with it (ids: p.Path(z.string())), or rename the parameter.',
    );
  });
});
