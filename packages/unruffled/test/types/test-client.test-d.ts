// Type tests for the test client: checked by `tsc` (npm run typecheck), never run.
import { createApp } from "unruffled";
import { JsonResponse, PlainTextResponse } from "unruffled/http";
import { dependency, endpoint, type JsonOptions, p, path } from "unruffled/route";
import { type TestResponse, testClient } from "unruffled/testing";
import { expectTypeOf } from "vitest";
import { z } from "zod";

const BindRequest = z.object({ student_id: z.int().gt(0), course_id: z.int().gt(0) });
const BindResponse = z.object({
  code: z.int(),
  message: z.string(),
  data: z.object({ student_id: z.int(), course_id: z.int() }),
});
const ErrorResponse = z.object({ code: z.int(), message: z.string(), data: z.null() });

const bind = endpoint({
  params: { body: p.Json(BindRequest) },
  returns: [p.ResponseSpec({ model: BindResponse })],
  handler: (_request, { body }) => new JsonResponse({ code: 0, message: "ok", data: body }),
});
const list = endpoint({
  params: {
    page: p.Query(z.int(), { default: 1 }),
    search: p.Query(z.string().optional()),
    tags: p.Query(z.array(z.string())),
  },
  returns: [p.ResponseSpec({ model: BindResponse }), p.ResponseSpec({ model: ErrorResponse, code: "404" })],
  handler: () => new JsonResponse({ code: 404, message: "none", data: null }, { status: 404 }),
});
const upload = endpoint({
  params: { cv: p.File(), extras: p.File({ list: true, optional: true }), title: p.Form(z.string()) },
  returns: JsonResponse,
  handler: () => new JsonResponse(null),
});
const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("hi") });

const client = testClient(
  createApp({
    routes: [
      path("/bind", { endpoint: bind, methods: ["POST"] }),
      path("/list", { endpoint: list }),
      path("/upload", { endpoint: upload, methods: ["POST"] }),
      path("/hello", { endpoint: hello }),
    ],
  }),
);

// `call` takes the parameters by name, typed by their schemas' input; json() is the documented model.
const bound = await client.call(bind, { body: { student_id: 1, course_id: 2 } });
expectTypeOf(bound).toEqualTypeOf<
  TestResponse<z.output<typeof BindResponse>, 200, never> | TestResponse<never, number, never>
>();
expectTypeOf(bound.json()).toEqualTypeOf<z.output<typeof BindResponse>>();
expectTypeOf(bound.json().data.course_id).toEqualTypeOf<number>();
expectTypeOf(bound.json<{ anything: true }>()).toEqualTypeOf<{ anything: true }>();

// Several documented models: json() is their union.
const listed = await client.call(list, { tags: ["a"] });
expectTypeOf(listed.json()).toEqualTypeOf<z.output<typeof BindResponse> | z.output<typeof ErrorResponse>>();

// Parameters with a default or an optional schema may be left out; the others may not.
await client.call(list, { tags: [], page: 2, search: "ann" });
// @ts-expect-error `tags` has no default
await client.call(list, { page: 2 });
// @ts-expect-error `page` is an int, not a string
await client.call(list, { tags: [], page: "2" });
// @ts-expect-error `size` is not a parameter
await client.call(list, { tags: [], size: 2 });
// @ts-expect-error the body needs course_id
await client.call(bind, { body: { student_id: 1 } });
// @ts-expect-error the parameters are required when some have no default
await client.call(bind);
// @ts-expect-error nor may they be undefined
await client.call(bind, undefined, { headers: { "x-trace": "1" } });

// Files are TestFile values; an optional list may be left out.
await client.call(upload, { cv: { filename: "cv.txt", content: "hi" }, title: "CV" });
await client.call(upload, {
  cv: { filename: "cv.bin", content: new Uint8Array([1]), contentType: "application/pdf" },
  extras: [{ filename: "a", content: "a" }],
  title: "CV",
});
// @ts-expect-error a file is not a string
await client.call(upload, { cv: "cv.txt", title: "CV" });

// An endpoint without parameters needs no argument; its answer is untyped. Options follow `undefined` or `{}`.
const greeting = await client.call(hello);
await client.call(hello, undefined, { headers: { "x-trace": "1" } });
await client.call(hello, {}, { method: "HEAD" });
expectTypeOf(greeting.json()).toEqualTypeOf<unknown>();
expectTypeOf(greeting.text).toEqualTypeOf<string>();
expectTypeOf(greeting.status).toEqualTypeOf<number>();
expectTypeOf(greeting.headers).toEqualTypeOf<Headers>();

// Requests by path take any path; their bodies are one of json, form, files, body.
const page = await client.get("/list", { query: { page: 2, tags: ["a", "b"], search: undefined } });
expectTypeOf(page.json()).toEqualTypeOf<unknown>();
expectTypeOf(page.json<{ code: number }>().code).toEqualTypeOf<number>();
await client.post("/upload", { form: { title: "CV" }, files: { cv: { filename: "cv.txt", content: "hi" } } });
await client.post("/bind", {
  json: { student_id: 1, course_id: 2 },
  headers: { "x-a": "1" },
  cookies: { s: "1" },
});
// A header sent more than once is a list of strings, one line each: by path, in a call, as a default.
await client.get("/list", { headers: { "x-tag": ["a", "b"], accept: "text/html" } });
await client.call(hello, undefined, { headers: { "x-tag": ["a", "b"] } });
testClient(createApp({ routes: [] }), { headers: { "x-tag": ["a"] as readonly string[] } });
// @ts-expect-error a header's values are strings
await client.get("/list", { headers: { "x-tag": [1, 2] } });
// @ts-expect-error headers are an object of names, not a list of pairs
await client.get("/list", { headers: [["x-tag", "a"]] });
// @ts-expect-error nor a web Headers object
await client.get("/list", { headers: new Headers({ "x-tag": "a" }) });
// @ts-expect-error query values are scalars or lists of them
await client.get("/list", { query: { page: { nested: 1 } } });
// @ts-expect-error GET takes no body
await client.get("/list", { json: {} });

// A list with a default (written `[]`, read as `readonly []`) may be left out of a typed call.
const tagged = endpoint({
  params: {
    tag: p.Query(z.array(z.string()), { default: [] }),
    ids: p.Header(z.array(z.int()), { default: [1, 2] }),
    filter: p.Json(z.object({ names: z.array(z.string()) }), { default: { names: [] } }),
  },
  returns: JsonResponse,
  handler: (_request, { tag, ids, filter }) => {
    expectTypeOf(tag).toEqualTypeOf<string[]>();
    expectTypeOf(ids).toEqualTypeOf<number[]>();
    expectTypeOf(filter).toEqualTypeOf<{ names: string[] }>();
    return new JsonResponse(tag);
  },
});
const taggedClient = testClient(createApp({ routes: [path("/tagged", { endpoint: tagged })] }));
await taggedClient.call(tagged, {});
await taggedClient.call(tagged);
await taggedClient.call(tagged, { tag: ["a"], ids: [3] });
// @ts-expect-error a list of strings, not numbers
await taggedClient.call(tagged, { tag: [1] });

// Values the app gives (the response draft, security scopes) are no parameters of a call; a
// dependency's parameters are, required unless they have a default.
const tenant = dependency({
  params: { tenant: p.Header(z.string()), region: p.Query(z.string(), { default: "eu" }) },
  resolve: (_request, { tenant }) => tenant,
});
const contextual = endpoint({
  params: { draft: p.Response(), scopes: p.SecurityScopes(), owner: p.Depends(tenant), id: p.Path(z.int()) },
  returns: JsonResponse,
  handler: (_request, { owner, id }) => new JsonResponse({ owner, id }),
});
const contextualClient = testClient(createApp({ routes: [path("/c/{id}", { endpoint: contextual })] }));
await contextualClient.call(contextual, { id: 1, tenant: "t" });
await contextualClient.call(contextual, { id: 1, tenant: "t", region: "us" });
// @ts-expect-error the dependency's tenant header has no default
await contextualClient.call(contextual, { id: 1 });
// @ts-expect-error the response draft is not a parameter of the call
await contextualClient.call(contextual, { id: 1, tenant: "t", draft: {} });
// @ts-expect-error id is an int
await contextualClient.call(contextual, { id: "1", tenant: "t" });

// A required parameter (the endpoint's or a dependency's) may not be `undefined`: the server answers
// 422 for it. A nullable one accepts `null`; an optional one, or one with a default, `undefined`.
// @ts-expect-error id is required: undefined is not an int
await contextualClient.call(contextual, { id: undefined, tenant: "t" });
// @ts-expect-error the dependency's tenant header is required: undefined is not a string
await contextualClient.call(contextual, { id: 1, tenant: undefined });
await contextualClient.call(contextual, { id: 1, tenant: "t", region: undefined });
await client.call(list, { tags: [], page: undefined, search: undefined });
const nullable = endpoint({
  params: { body: p.Json(z.object({ name: z.string() }).nullable()) },
  returns: JsonResponse,
  handler: (_request, { body }) => new JsonResponse(body),
});
const nullableClient = testClient(
  createApp({ routes: [path("/n", { endpoint: nullable, methods: ["POST"] })] }),
);
await nullableClient.call(nullable, { body: null });
await nullableClient.call(nullable, { body: { name: "ann" } });
// @ts-expect-error the body is required: null, not undefined
await nullableClient.call(nullable, { body: undefined });

// An embedded body parameter (FastAPI's Body(embed=True)) is typed as any other: keyed by its name,
// its handler value the model, its default making it optional in call().
const Item = z.object({ name: z.string(), price: z.number() });
const embedded = endpoint({
  params: {
    item: p.Json(Item, { embed: true }),
    extra: p.Json(Item, { embed: true, default: { name: "none", price: 0 } }),
  },
  returns: JsonResponse,
  handler: (_request, { item, extra }) => {
    expectTypeOf(item).toEqualTypeOf<{ name: string; price: number }>();
    expectTypeOf(extra).toEqualTypeOf<{ name: string; price: number }>();
    return new JsonResponse(item);
  },
});
const embeddedClient = testClient(
  createApp({ routes: [path("/e", { endpoint: embedded, methods: ["POST"] })] }),
);
await embeddedClient.call(embedded, { item: { name: "Foo", price: 1 } });
// @ts-expect-error the embedded item needs its price
await embeddedClient.call(embedded, { item: { name: "Foo" } });
// @ts-expect-error embed is an option of p.Json only
p.Query(z.string(), { embed: true });
// The options of p.Json are a public type, as FieldOptions is.
const embedOptions = { embed: true, alias: "the-item" } satisfies JsonOptions;
p.Json(Item, embedOptions);
