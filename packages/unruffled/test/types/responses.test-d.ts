// Type tests of answers against their declared models: checked by `tsc` (npm run typecheck), never run.
import { createApp } from "unruffled";
import {
  EventStreamResponse,
  FileResponse,
  HttpResponse,
  JsonResponse,
  PlainTextResponse,
} from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { testClient } from "unruffled/testing";
import { expectTypeOf } from "vitest";
import { z } from "zod";

const Student = z.object({ id: z.int(), name: z.string(), nickname: z.string().optional() });
const Page = z.object({ code: z.int().default(0), message: z.string().default(""), data: z.array(Student) });
const NotFound = z.object({ detail: z.string() });
const SeatCount = z.object({ course_id: z.int(), seats_left: z.int() });

// A JsonResponse carries its body's type.
expectTypeOf(new JsonResponse({ id: 1, name: "Ann" }).data).toEqualTypeOf<{ id: number; name: string }>();

// A body that matches the model compiles, extra fields included (they are left out when sent).
endpoint({
  returns: [p.ResponseSpec({ model: Student })],
  handler: () => new JsonResponse({ id: 1, name: "Ann", password_hash: "x" }),
});

// Defaulted fields may be left out: the body is the model's input.
endpoint({
  returns: [p.ResponseSpec({ model: Page })],
  handler: () => new JsonResponse({ data: [{ id: 1, name: "Ann" }] }),
});

// A field of the wrong type does not compile.
endpoint({
  returns: [p.ResponseSpec({ model: Student })],
  // @ts-expect-error id is a number in the model
  handler: () => new JsonResponse({ id: "1", name: "Ann" }),
});

// A missing required field does not compile, in an async handler too.
endpoint({
  returns: [p.ResponseSpec({ model: Student })],
  // @ts-expect-error name is required
  handler: async () => new JsonResponse({ id: 1 }),
});

// Nested bodies are checked at every depth.
endpoint({
  returns: [p.ResponseSpec({ model: Page })],
  // @ts-expect-error a student's name is a string
  handler: () => new JsonResponse({ code: 0, data: [{ id: 1, name: 2 }] }),
});

// With several models, a body matching any one of them compiles, and one matching none does not.
endpoint({
  params: { id: p.Path(z.int()) },
  returns: [p.ResponseSpec({ model: Student }), p.ResponseSpec({ model: NotFound, code: "404" })],
  handler: (_request, { id }) =>
    id > 0
      ? new JsonResponse({ id, name: "Ann" })
      : new JsonResponse({ detail: "no such student" }, { status: 404 }),
});
endpoint({
  returns: [p.ResponseSpec({ model: Student }), p.ResponseSpec({ model: NotFound, code: "404" })],
  // @ts-expect-error neither a student nor a NotFound body
  handler: () => new JsonResponse({ error: "no such student" }, { status: 404 }),
});

// A response of another kind compiles only where the endpoint declares another media type.
endpoint({
  returns: [p.ResponseSpec({ model: Student })],
  // @ts-expect-error only a JSON model is declared: a text answer contradicts it
  handler: () => new PlainTextResponse("moved", { status: 303, headers: { location: "/students/1" } }),
});
endpoint({
  returns: [p.ResponseSpec({ model: Student })],
  // @ts-expect-error bytes written by hand would skip the model
  handler: () => new HttpResponse('{"id":1,"name":"Ann"}', {}, "application/json"),
});
endpoint({
  returns: [
    p.ResponseSpec({ model: Student }),
    p.ResponseSpec({ model: z.string(), code: "303", content_type: "text/plain" }),
  ],
  handler: () => new PlainTextResponse("moved", { status: 303, headers: { location: "/students/1" } }),
});

// A status the endpoint declares picks its model; a success status it does not declare does not compile.
const Row = z.object({ id: z.int(), email: z.string() });
const row = { id: 1, email: "ann@example.edu", password_hash: "$argon2id$…" };
endpoint({
  returns: [p.ResponseSpec({ model: Row, code: "201" })],
  handler: () => new JsonResponse(row, { status: 201 }),
});
endpoint({
  returns: [p.ResponseSpec({ model: Row, code: "201" })],
  // Compiles: built without a status, the answer takes the endpoint's one success status, 201.
  handler: () => new JsonResponse(row),
});
endpoint({
  returns: [p.ResponseSpec({ model: Row, code: "201" })],
  // @ts-expect-error 200 is not declared: only 201 is
  handler: () => new JsonResponse(row, { status: 200 }),
});
// One model at an error code only: an answer without a status is a 200, which is not declared;
// with any other status, the body must still match the model.
endpoint({
  returns: [p.ResponseSpec({ model: NotFound, code: "404" })],
  // @ts-expect-error without a status this answers 200, which is not declared
  handler: () => new JsonResponse({ detail: "gone" }),
});
endpoint({
  returns: [p.ResponseSpec({ model: NotFound, code: "404" })],
  handler: () => new JsonResponse({ detail: "gone" }, { status: 404 }),
});
endpoint({
  returns: [p.ResponseSpec({ model: NotFound, code: "404" })],
  // @ts-expect-error detail is a string
  handler: () => new JsonResponse({ detail: 1 }, { status: 404 }),
});
endpoint({
  returns: [p.ResponseSpec({ model: Row, code: "201" }), p.ResponseSpec({ model: NotFound, code: "202" })],
  // @ts-expect-error the body of 202 is a NotFound, not a row
  handler: () => new JsonResponse(row, { status: 202 }),
});
endpoint({
  returns: [p.ResponseSpec({ model: Row, code: "201" }), p.ResponseSpec({ model: NotFound, code: "404" })],
  handler: () => new JsonResponse({ detail: "no such row" }, { status: 404 }),
});
// A status known only at run time takes the body of any JSON model.
declare const someStatus: number;
endpoint({
  returns: [p.ResponseSpec({ model: Row, code: "201" }), p.ResponseSpec({ model: NotFound, code: "404" })],
  handler: () => new JsonResponse(row, { status: someStatus }),
});
expectTypeOf(new JsonResponse(row, { status: 201 })["~status"]).toEqualTypeOf<201>();
expectTypeOf(new JsonResponse(row, { status: 404 })["~status"]).toEqualTypeOf<"other">();
expectTypeOf(new JsonResponse(row, { status: someStatus })["~status"]).toEqualTypeOf<"other">();
// A JsonResponse annotated without type arguments takes any status.
const envelope = (status: number): JsonResponse => new JsonResponse({ detail: "x" }, { status });
endpoint({ returns: JsonResponse, handler: () => envelope(418) });

// A response class as `returns` takes any JSON body, as before.
endpoint({ returns: JsonResponse, handler: () => new JsonResponse({ anything: [1, "two"] }) });

// The escape hatch: JsonResponse.unchecked() is not compared with the models (the model still filters it).
declare const fromUntypedLibrary: unknown;
endpoint({
  returns: [p.ResponseSpec({ model: Student })],
  handler: () => JsonResponse.unchecked(fromUntypedLibrary),
});

// An event stream's data must match its model.
endpoint({
  returns: [p.ResponseSpec({ model: SeatCount, content_type: "text/event-stream" })],
  handler: () => new EventStreamResponse([{ data: { course_id: 1, seats_left: 3 }, id: "1" }]),
});
endpoint({
  returns: [p.ResponseSpec({ model: SeatCount, content_type: "text/event-stream" })],
  // @ts-expect-error seats_left is missing from the event's data
  handler: () => new EventStreamResponse([{ data: { course_id: 1 } }]),
});
endpoint({
  returns: [p.ResponseSpec({ model: SeatCount, content_type: "text/event-stream" })],
  async handler(request) {
    async function* seats(signal: AbortSignal) {
      while (!signal.aborted) yield { data: { course_id: 1, seats_left: 2 }, event: "seats" };
    }
    return new EventStreamResponse(seats(request.signal), { heartbeat: 10_000 });
  },
});

// The test client reads an event stream's events typed as the event model.
const seatStream = endpoint({
  returns: [p.ResponseSpec({ model: SeatCount, content_type: "text/event-stream" })],
  handler: () => new EventStreamResponse([{ data: { course_id: 1, seats_left: 3 } }]),
});
const events = (
  await testClient(createApp({ routes: [path("/seats", { endpoint: seatStream })] })).call(seatStream)
).events();
for await (const event of events) {
  expectTypeOf(event.data).toEqualTypeOf<{ course_id: number; seats_left: number }>();
  expectTypeOf(event.id).toEqualTypeOf<string | undefined>();
}

// A JSON body and an event's data are each matched against the models of their own media type.
endpoint({
  returns: [p.ResponseSpec({ model: Student })],
  // @ts-expect-error the endpoint declares a JSON body, not an event stream
  handler: () => new EventStreamResponse([{ data: { id: 1, name: "Ann" } }]),
});
endpoint({
  returns: [p.ResponseSpec({ model: SeatCount, content_type: "text/event-stream" })],
  // @ts-expect-error the endpoint declares an event stream, not a JSON body
  handler: () => new JsonResponse({ course_id: 1, seats_left: 3 }),
});
endpoint({
  params: { follow: p.Query(z.boolean(), { default: false }) },
  returns: [
    p.ResponseSpec({ model: Student }),
    p.ResponseSpec({ model: SeatCount, code: "202", content_type: "text/event-stream" }),
  ],
  handler: (_request, { follow }) =>
    follow
      ? new EventStreamResponse([{ data: { course_id: 1, seats_left: 3 } }], { status: 202 })
      : new JsonResponse({ id: 1, name: "Ann" }),
});
// A media type the types cannot see (a string) may be either.
declare const mediaType: string;
endpoint({
  returns: [p.ResponseSpec({ model: SeatCount, content_type: mediaType })],
  handler: () => new JsonResponse({ course_id: 1, seats_left: 3 }),
});
endpoint({
  returns: [p.ResponseSpec({ model: SeatCount, content_type: mediaType })],
  handler: () => new EventStreamResponse([{ data: { course_id: 1, seats_left: 3 } }]),
});

// A response class beside ResponseSpecs: its instances compile, and each spec still types its status.
endpoint({
  returns: [HttpResponse, p.ResponseSpec({ model: NotFound, code: "404" })],
  handler: () => new HttpResponse(new Uint8Array([1]), { headers: { "content-type": "image/png" } }),
});
endpoint({
  returns: [PlainTextResponse, p.ResponseSpec({ model: NotFound, code: "404" })],
  handler: () => new PlainTextResponse("hi"),
});
endpoint({
  returns: [PlainTextResponse, p.ResponseSpec({ model: NotFound, code: "404" })],
  // @ts-expect-error a JSON body is not the class declared, and matches no model
  handler: () => new JsonResponse({ anything: 1 }),
});
endpoint({
  returns: [JsonResponse, p.ResponseSpec({ model: NotFound, code: "404" })],
  handler: () => new JsonResponse({ anything: 1 }),
});

// Built without a status, an answer takes the endpoint's one success status, and so that status's model.
endpoint({
  returns: [p.ResponseSpec({ model: Row, code: "201" }), p.ResponseSpec({ model: NotFound, code: "404" })],
  // @ts-expect-error without a status this answers 201, whose model is a row
  handler: () => new JsonResponse({ detail: "no such row" }),
});
endpoint({
  returns: [p.ResponseSpec({ model: Row, code: "201" }), p.ResponseSpec({ model: Row, code: "202" })],
  // @ts-expect-error with two success statuses the default stays 200, which is not declared
  handler: () => new JsonResponse(row),
});
expectTypeOf(new JsonResponse(row)["~status"]).toEqualTypeOf<undefined>();

// Written without type arguments, JsonResponse is any JSON response; instanceof narrows to it.
declare const answered: unknown;
if (answered instanceof JsonResponse) expectTypeOf(answered.data).toEqualTypeOf<unknown>();
// A subclass that takes a status names its type.
class Paged extends JsonResponse<{ id: number; email: string }, number> {}
endpoint({
  returns: [p.ResponseSpec({ model: Row, code: "201" }), p.ResponseSpec({ model: NotFound, code: "404" })],
  handler: () => new Paged(row, { status: 201 }),
});

// A file: returns: FileResponse takes one; where a JSON model or text is declared, a file does not compile.
endpoint({
  returns: FileResponse,
  handler: () => new FileResponse("report.pdf", { filename: "report.pdf", disposition: "inline" }),
});
endpoint({
  returns: [FileResponse, p.ResponseSpec({ model: NotFound, code: "404" })],
  handler: () => new FileResponse("report.pdf"),
});
endpoint({
  returns: [p.ResponseSpec({ model: Student })],
  // @ts-expect-error a file would skip the model
  handler: () => new FileResponse("student.json"),
});
endpoint({
  returns: [PlainTextResponse, p.ResponseSpec({ model: NotFound, code: "404" })],
  // @ts-expect-error a file is not the text declared
  handler: () => new FileResponse("notes.txt"),
});
// @ts-expect-error disposition is "attachment" or "inline"
new FileResponse("a.txt", { disposition: "download" });
