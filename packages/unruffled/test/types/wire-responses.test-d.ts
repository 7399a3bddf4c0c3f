// Type tests of `testClient(app).call()` against the wire: answers typed as their JSON form, a union
// that a check of `status` narrows, and parameters as the server accepts them. Checked by `tsc`
// (npm run typecheck), never run; test/testing/wire-types.test.ts shows the same at run time.
import { createApp } from "unruffled";
import { JsonResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { testClient, type ValidationErrorBody } from "unruffled/testing";
import { expectTypeOf } from "vitest";
import { z } from "zod";

const Note = z.object({ id: z.int(), added: z.date(), tags: z.array(z.string()) });
const NotFound = z.object({ detail: z.string() });
const Meeting = z.object({ title: z.string(), starts: z.date(), reminders: z.array(z.date()).default([]) });

const getNote = endpoint({
  params: { id: p.Path(z.int()) },
  returns: [p.ResponseSpec({ model: Note }), p.ResponseSpec({ model: NotFound, code: "404" })],
  handler: (_request, { id }) =>
    id === 1
      ? new JsonResponse({ id, added: new Date(), tags: [] })
      : new JsonResponse({ detail: "no such note" }, { status: 404 }),
});
const schedule = endpoint({
  params: { meeting: p.Json(Meeting), after: p.Query(z.date().optional()) },
  returns: [p.ResponseSpec({ model: Meeting, code: "201" })],
  handler: (_request, { meeting }) => {
    expectTypeOf(meeting.starts).toEqualTypeOf<Date>();
    return new JsonResponse(meeting, { status: 201 });
  },
});
const search = endpoint({
  params: { filter: p.Query(z.object({ name: z.string().optional(), active: z.boolean().default(true) })) },
  returns: JsonResponse,
  handler: (_request, { filter }) => new JsonResponse(filter),
});
const strictSearch = endpoint({
  params: { filter: p.Query(z.object({ name: z.string(), active: z.boolean().default(true) })) },
  returns: JsonResponse,
  handler: (_request, { filter }) => new JsonResponse(filter),
});
const uploadMany = endpoint({
  params: { files: p.File({ list: true }), extras: p.File({ list: true, optional: true }) },
  returns: PlainTextResponse,
  handler: (_request, { files }) => new PlainTextResponse(String(files.length)),
});

const client = testClient(
  createApp({
    routes: [
      path("/notes/{id}", { endpoint: getNote }),
      path("/meetings", { endpoint: schedule, methods: ["POST"] }),
      path("/search", { endpoint: search }),
      path("/strict-search", { endpoint: strictSearch }),
      path("/upload", { endpoint: uploadMany, methods: ["POST"] }),
    ],
  }),
);

type NoteJson = { id: number; added: string; tags: string[] };

// json() is the model in its JSON form: a date is the string it is on the wire.
const note = await client.call(getNote, { id: 1 });
expectTypeOf(note.json()).toEqualTypeOf<NoteJson | { detail: string }>();

// Checking the status narrows json() to the model of that status.
if (note.status === 200) {
  expectTypeOf(note.json()).toEqualTypeOf<NoteJson>();
  expectTypeOf(note.json().added).toEqualTypeOf<string>();
  // @ts-expect-error a date field is a string in JSON: no Date methods
  note.json().added.getFullYear();
}
if (note.status === 404) {
  expectTypeOf(note.json()).toEqualTypeOf<{ detail: string }>();
  // @ts-expect-error the 404 model has no id
  void note.json().id;
}
// A status the endpoint does not declare (the framework's 422) is `never` until a type is given.
if (note.status === 422) {
  expectTypeOf(note.json()).toEqualTypeOf<never>();
  expectTypeOf(note.json<ValidationErrorBody>().detail[0]!.loc).toEqualTypeOf<Array<string | number>>();
}
expectTypeOf(note.status).toEqualTypeOf<number>();

// Dates in requests: a Date or its ISO string, in a JSON body and in the query.
const scheduled = await client.call(schedule, {
  meeting: { title: "Review", starts: new Date(), reminders: ["2026-03-01T09:30:00Z"] },
  after: "2026-01-01T00:00:00Z",
});
await client.call(schedule, {
  meeting: { title: "Review", starts: "2026-03-02T09:30:00Z" },
  after: new Date(),
});
// @ts-expect-error a date is a Date or a string, not a number
await client.call(schedule, { meeting: { title: "Review", starts: 1 } });
if (scheduled.status === 201) {
  expectTypeOf(scheduled.json()).toEqualTypeOf<{ title: string; starts: string; reminders: string[] }>();
}

// A query model whose fields may all be left out may be left out itself; one with a required field not.
await client.call(search);
await client.call(search, {});
await client.call(search, { filter: { name: "a" } });
await client.call(strictSearch, { filter: { name: "a" } });
// @ts-expect-error the model's name has no default
await client.call(strictSearch, {});

// A required list of files holds one at least (the server answers 422 for none); an optional one may be empty.
await client.call(uploadMany, { files: [{ filename: "a.txt", content: "a" }], extras: [] });
// @ts-expect-error at least one file
await client.call(uploadMany, { files: [] });
