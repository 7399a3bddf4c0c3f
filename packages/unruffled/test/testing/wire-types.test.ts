// docs/testing.md, "Typed calls": what call() answers is what travels, as its types say
// (test/types/wire-responses.test-d.ts): a date is a string; a Date given is sent as its ISO string.
import { createApp } from "unruffled";
import { JsonResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { testClient, type ValidationErrorBody } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const Note = z.object({ id: z.int(), added: z.date() });
const getNote = endpoint({
  params: { id: p.Path(z.int()) },
  returns: [
    p.ResponseSpec({ model: Note }),
    p.ResponseSpec({ model: z.object({ detail: z.string() }), code: "404" }),
  ],
  handler: (_request, { id }) =>
    id === 1
      ? new JsonResponse({ id, added: new Date("2026-03-02T09:30:00Z") })
      : new JsonResponse({ detail: `No note ${id}` }, { status: 404 }),
});
const Meeting = z.object({ title: z.string(), starts: z.date() });
const schedule = endpoint({
  params: { meeting: p.Json(Meeting), after: p.Query(z.date().optional()) },
  returns: [p.ResponseSpec({ model: Meeting.extend({ weekday: z.int(), after: z.date().nullable() }) })],
  handler: (_request, { meeting, after }) =>
    new JsonResponse({ ...meeting, weekday: meeting.starts.getUTCDay(), after: after ?? null }),
});
const search = endpoint({
  params: { filter: p.Query(z.object({ name: z.string().optional(), active: z.boolean().default(true) })) },
  returns: JsonResponse,
  handler: (_request, { filter }) => new JsonResponse(filter),
});
const tagged = endpoint({
  params: {
    tag: p.Query(z.string().nullable().default("none")),
    filter: p.Query(z.object({ name: z.string().nullable().optional() })),
  },
  returns: JsonResponse,
  handler: (_request, params) => new JsonResponse(params),
});
const uploadMany = endpoint({
  params: { files: p.File({ list: true }) },
  returns: PlainTextResponse,
  handler: (_request, { files }) => new PlainTextResponse(files.map((file) => file.filename).join(", ")),
});

const client = testClient(
  createApp({
    routes: [
      path("/notes/{id}", { endpoint: getNote }),
      path("/meetings", { endpoint: schedule, methods: ["POST"] }),
      path("/search", { endpoint: search }),
      path("/upload", { endpoint: uploadMany, methods: ["POST"] }),
      path("/tagged", { endpoint: tagged }),
    ],
  }),
);

describe("call() answers as the wire carries it", () => {
  it("gives a date field as the ISO string it is in JSON, as json()'s type says", async () => {
    const response = await client.call(getNote, { id: 1 });
    if (response.status !== 200) throw new Error(`status ${response.status}`);
    const added = response.json().added;
    expect([typeof added, added]).toEqual(["string", "2026-03-02T09:30:00.000Z"]);
  });

  it("gives a declared error status's model once the status is checked", async () => {
    const response = await client.call(getNote, { id: 2 });
    expect(response.status).toBe(404);
    if (response.status === 404) expect(response.json().detail).toBe("No note 2");
  });
});

describe("call() sends what the server accepts", () => {
  it("sends a Date in a JSON body and in the query as its ISO string; the handler gets a Date", async () => {
    const response = await client.call(schedule, {
      meeting: { title: "Review", starts: new Date("2026-03-02T09:30:00Z") },
      after: new Date("2026-01-01T00:00:00Z"),
    });
    expect([response.status, response.json()]).toEqual([
      200,
      { title: "Review", starts: "2026-03-02T09:30:00.000Z", weekday: 1, after: "2026-01-01T00:00:00.000Z" },
    ]);
  });

  it("sends a date given as its ISO string as it is", async () => {
    const response = await client.call(schedule, {
      meeting: { title: "Review", starts: "2026-03-02T10:30:00+01:00" },
    });
    expect([response.status, response.json()]).toEqual([
      200,
      { title: "Review", starts: "2026-03-02T09:30:00.000Z", weekday: 1, after: null },
    ]);
  });

  it("leaves out a query model whose fields may all be left out: the server reads an empty model", async () => {
    const response = await client.call(search);
    expect([response.status, response.json()]).toEqual([200, { active: true }]);
  });

  it("leaves out a null given for a value sent as text, as undefined, as the generated client does", async () => {
    const response = await client.call(tagged, { tag: null, filter: { name: null } });
    expect([response.status, response.json()]).toEqual([200, { tag: "none", filter: {} }]);
  });

  it("uploads a required list of files; without one the server answers 422, which the types refuse", async () => {
    const response = await client.call(uploadMany, { files: [{ filename: "a.txt", content: "a" }] });
    expect([response.status, response.text]).toEqual([200, "a.txt"]);
    const none = await client.call(uploadMany, { files: [] as never });
    expect([none.status, none.json<ValidationErrorBody>()]).toEqual([
      422,
      { detail: [{ loc: ["body", "files"], msg: "Field required", type: "missing", input: null }] },
    ]);
  });
});
