// Type tests for the public API: checked by `tsc` (npm run typecheck), never run.

import type { UploadFile } from "unruffled/file";
import { HttpRequest, JsonResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { expectTypeOf } from "vitest";
import { z } from "zod";

const BindRequest = z.object({ student_id: z.int().gt(0), course_id: z.int().gt(0) });

// A handler's parameter types are inferred from the markers.
endpoint({
  params: {
    page: p.Query(z.int(), { default: 1, ge: 1 }),
    search: p.Query(z.string().optional()),
    tags: p.Query(z.array(z.string()), { default: [] }),
    id: p.Path(z.int()),
    token: p.Header(z.string()),
    session: p.Cookie(z.string(), { default: "anonymous" }),
    body: p.Json(BindRequest),
    note: p.Json(z.string(), { default: "" }),
    detected: z.boolean(),
    model: z.object({ a: z.string() }),
  },
  returns: JsonResponse,
  handler(request, params) {
    expectTypeOf(request).toEqualTypeOf<HttpRequest>();
    expectTypeOf(params.page).toEqualTypeOf<number>();
    expectTypeOf(params.search).toEqualTypeOf<string | undefined>();
    expectTypeOf(params.tags).toEqualTypeOf<string[]>();
    expectTypeOf(params.id).toEqualTypeOf<number>();
    expectTypeOf(params.token).toEqualTypeOf<string>();
    expectTypeOf(params.session).toEqualTypeOf<string>();
    expectTypeOf(params.body).toEqualTypeOf<{ student_id: number; course_id: number }>();
    expectTypeOf(params.note).toEqualTypeOf<string>();
    expectTypeOf(params.detected).toEqualTypeOf<boolean>();
    expectTypeOf(params.model).toEqualTypeOf<{ a: string }>();
    return new JsonResponse(params);
  },
});

// Files are UploadFile, a list of them, or optional.
endpoint({
  params: {
    one: p.File(),
    many: p.File({ list: true }),
    maybe: p.File({ optional: true }),
    title: p.Form(z.string()),
  },
  returns: JsonResponse,
  async handler(_request, { one, many, maybe, title }) {
    expectTypeOf(one).toEqualTypeOf<UploadFile>();
    expectTypeOf(many).toEqualTypeOf<UploadFile[]>();
    expectTypeOf(maybe).toEqualTypeOf<UploadFile | undefined>();
    expectTypeOf(title).toEqualTypeOf<string>();
    expectTypeOf(await one.read()).toEqualTypeOf<Buffer>();
    return new JsonResponse({ size: one.size });
  },
});

// An endpoint without params gets an empty object, and sync handlers are fine.
endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("Hello, World!") });

// Reading a parameter that was not declared fails to compile.
endpoint({
  params: { page: p.Query(z.int()) },
  returns: JsonResponse,
  handler(_request, params) {
    // @ts-expect-error `size` is not declared
    return new JsonResponse({ size: params.size });
  },
});

// An endpoint without `returns` fails to compile.
// @ts-expect-error returns is required
endpoint({ handler: () => new JsonResponse(null) });

// A handler must return a response.
// @ts-expect-error a string is not a response
endpoint({ returns: JsonResponse, handler: () => "hello" });

// A default must fit the schema.
// @ts-expect-error a string default for an int
p.Query(z.int(), { default: "one" });

// A marker needs a schema.
// @ts-expect-error no schema
p.Query();

// A route needs an endpoint or routes, and a path made with path().
const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("hi") });
path("/hello", { endpoint: hello, methods: ["GET"], name: "hello" });
path("/api", { routes: [path("/hello", { endpoint: hello })] });
// @ts-expect-error endpoint and routes exclude each other
path("/both", { endpoint: hello, routes: [] });

// An app-defined request class reaches the handler.
class TenantRequest extends HttpRequest {
  get tenant(): string {
    return String(this.headers["x-tenant"] ?? "public");
  }
}
endpoint({
  returns: JsonResponse,
  handler(request: TenantRequest) {
    expectTypeOf(request.tenant).toEqualTypeOf<string>();
    return new JsonResponse({ tenant: request.tenant });
  },
});
