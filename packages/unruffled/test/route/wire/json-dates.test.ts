// docs/validation.md, "Dates": a z.date() reads an RFC 3339 date-time string (with an offset) as a
// Date before validation, in a JSON body as in the query, headers, cookies and forms.
import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { generateOpenApi } from "unruffled/openapi";
import { endpoint, p, path } from "unruffled/route";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { dateReaderOf } from "../../../src/route/wire/json-dates.ts";
import { jsonOf, serveEndpoint } from "../../support/serve.ts";

/** Answers, for each value the handler got, whether it is a Date and its ISO string. */
const seen = (params: Parameters<typeof endpoint>[0]["params"]) =>
  endpoint({
    params,
    returns: JsonResponse,
    handler: (_request, values) => new JsonResponse(shown(values)),
  });

function shown(value: unknown): unknown {
  if (value instanceof Date) return `Date ${value.toISOString()}`;
  if (Array.isArray(value)) return value.map(shown);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shown(item)]));
  return value;
}

const post = (body: unknown) => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

describe("a z.date() in a JSON body reads its ISO 8601 string as a Date", () => {
  it("reads a whole-body model's date, at every depth: nested, in lists, in records, optional", async () => {
    const Meeting = z.object({
      title: z.string(),
      starts: z.date(),
      ends: z.date().optional(),
      reminders: z.array(z.date()),
      room: z.object({ booked: z.date().nullable() }),
      notes: z.record(z.string(), z.date()),
    });
    const server = await serveEndpoint("/m", seen({ meeting: p.Json(Meeting) }), ["POST"]);
    const response = await server.fetch(
      "/m",
      post({
        title: "2026-03-02T09:30:00Z",
        starts: "2026-03-02T09:30:00+01:00",
        reminders: ["2026-03-01T09:30:00.250Z"],
        room: { booked: null },
        notes: { first: "2026-01-01T00:00:00Z" },
      }),
    );
    expect(await jsonOf(response)).toEqual({
      status: 200,
      body: {
        meeting: {
          title: "2026-03-02T09:30:00Z",
          starts: "Date 2026-03-02T08:30:00.000Z",
          reminders: ["Date 2026-03-01T09:30:00.250Z"],
          room: { booked: null },
          notes: { first: "Date 2026-01-01T00:00:00.000Z" },
        },
      },
    });
  });

  it("reads a date of a model beside a JSON scalar (both read the top level), and the scalar date", async () => {
    const server = await serveEndpoint(
      "/m",
      seen({ item: p.Json(z.object({ due: z.date() })), at: p.Json(z.date()) }),
      ["POST"],
    );
    const response = await server.fetch(
      "/m",
      post({ due: "2026-03-02T09:30:00Z", at: "2026-03-02T10:00:00Z" }),
    );
    expect(await jsonOf(response)).toEqual({
      status: 200,
      body: { item: { due: "Date 2026-03-02T09:30:00.000Z" }, at: "Date 2026-03-02T10:00:00.000Z" },
    });
  });

  it.each(["2026-03-02T09:30:00", "2026-03-02", "2026-02-30T09:30:00Z", "02/03/2026", "yesterday"])(
    "answers 422 for %j, which is no date-time with an offset, quoting it",
    async (spelling) => {
      const server = await serveEndpoint("/m", seen({ meeting: p.Json(z.object({ starts: z.date() })) }), [
        "POST",
      ]);
      expect(await jsonOf(server.fetch("/m", post({ starts: spelling })))).toEqual({
        status: 422,
        body: {
          detail: [
            {
              loc: ["body", "starts"],
              msg: "Invalid input: expected date, received string",
              type: "invalid_type",
              input: spelling,
            },
          ],
        },
      });
    },
  );
});

describe("a z.date() in a string source reads its ISO 8601 string as a Date", () => {
  it("reads the query, a header, a query model's field and a list", async () => {
    const server = await serveEndpoint(
      "/q",
      seen({
        after: p.Query(z.date()),
        since: p.Header(z.date()),
        window: p.Query(z.object({ from: z.date().optional() })),
        days: p.Query(z.array(z.date()), { default: [] }),
      }),
    );
    const response = await server.fetch(
      "/q?after=2026-03-02T09%3A30%3A00Z&from=2026-01-01T00%3A00%3A00Z&days=2026-01-02T00%3A00%3A00Z",
      { headers: { since: "2026-02-01T00:00:00-05:00" } },
    );
    expect(await jsonOf(response)).toEqual({
      status: 200,
      body: {
        after: "Date 2026-03-02T09:30:00.000Z",
        since: "Date 2026-02-01T05:00:00.000Z",
        window: { from: "Date 2026-01-01T00:00:00.000Z" },
        days: ["Date 2026-01-02T00:00:00.000Z"],
      },
    });
  });
});

describe("a z.date() in the path, a cookie or a form field reads the same strings", () => {
  it("reads the path and a cookie, and refuses a day the month does not have or a time without an offset", async () => {
    const server = await serveEndpoint(
      "/at/{day}",
      seen({ day: p.Path(z.date()), since: p.Cookie(z.date()) }),
    );
    expect(
      await jsonOf(
        server.fetch("/at/2026-03-02T09%3A30Z", {
          headers: { cookie: "since=2026-03-02T10:30:00.250+01:00" },
        }),
      ),
    ).toEqual({
      status: 200,
      body: { day: "Date 2026-03-02T09:30:00.000Z", since: "Date 2026-03-02T09:30:00.250Z" },
    });
    expect(
      await jsonOf(
        server.fetch("/at/2026-02-30T09%3A30%3A00Z", { headers: { cookie: "since=2026-03-02T09:30" } }),
      ),
    ).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["path", "day"],
            msg: "Invalid input: expected date, received string",
            type: "invalid_type",
            input: "2026-02-30T09:30:00Z",
          },
          {
            loc: ["cookie", "since"],
            msg: "Invalid input: expected date, received string",
            type: "invalid_type",
            input: "2026-03-02T09:30",
          },
        ],
      },
    });
  });

  it("reads a form field, urlencoded or multipart", async () => {
    const server = await serveEndpoint("/f", seen({ due: p.Form(z.date()) }), ["POST"]);
    const multipart = new FormData();
    multipart.set("due", "2026-03-02T09:30:00-02:00");
    const answers = [
      await jsonOf(
        server.fetch("/f", { method: "POST", body: new URLSearchParams({ due: "2026-03-02T09:30:00Z" }) }),
      ),
      await jsonOf(server.fetch("/f", { method: "POST", body: multipart })),
      await jsonOf(server.fetch("/f", { method: "POST", body: new URLSearchParams({ due: "2026-03-02" }) })),
    ];
    expect(answers).toEqual([
      { status: 200, body: { due: "Date 2026-03-02T09:30:00.000Z" } },
      { status: 200, body: { due: "Date 2026-03-02T11:30:00.000Z" } },
      {
        status: 422,
        body: {
          detail: [
            {
              loc: ["body", "due"],
              msg: "Invalid input: expected date, received string",
              type: "invalid_type",
              input: "2026-03-02",
            },
          ],
        },
      },
    ]);
  });
});

describe("the document says what the server reads", () => {
  it("describes a date in a JSON body and in the query as a string of format date-time", () => {
    const app = createApp({
      routes: [
        path("/m", {
          endpoint: seen({ meeting: p.Json(z.object({ starts: z.date() })), after: p.Query(z.date()) }),
          methods: ["POST"],
        }),
      ],
    });
    const operation = generateOpenApi(app).paths!["/m"]!.post!;
    expect([operation.parameters, operation.requestBody!.content["application/json"]!.schema]).toEqual([
      [{ name: "after", in: "query", required: true, schema: { type: "string", format: "date-time" } }],
      {
        type: "object",
        properties: { starts: { type: "string", format: "date-time" } },
        required: ["starts"],
      },
    ]);
  });
});

describe("reading dates is compiled when the route is built", () => {
  it("has no reader for a schema without a date: such a body is not walked", () => {
    expect(dateReaderOf(z.object({ a: z.string(), b: z.array(z.object({ c: z.int() })) }))).toBeUndefined();
  });

  it("reads a recursive schema's dates at every depth", () => {
    const Node: z.ZodType<{ at: Date; children: unknown[] }> = z.object({
      at: z.date(),
      get children() {
        return z.array(Node);
      },
    });
    const read = dateReaderOf(Node)!;
    const value = read({
      at: "2026-01-01T00:00:00Z",
      children: [{ at: "2026-01-02T00:00:00Z", children: [] }],
    });
    expect(value).toEqual({
      at: new Date("2026-01-01T00:00:00Z"),
      children: [{ at: new Date("2026-01-02T00:00:00Z"), children: [] }],
    });
  });

  it("writes a record's key __proto__ as an own key, never the prototype", () => {
    const read = dateReaderOf(z.record(z.string(), z.date()))!;
    const value = read(JSON.parse('{"__proto__": "2026-01-01T00:00:00Z"}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toEqual(
      new Date("2026-01-01T00:00:00Z"),
    );
  });
});

describe("audit: docs/validation.md, answers write a Date as its ISO string", () => {
  it.each(["strict", "off"] as const)("through a model's z.date(), at every depth (%s)", async (validate) => {
    const Event = z.object({ at: z.date(), history: z.array(z.object({ at: z.date() })) });
    const server = await serveEndpoint(
      "/event",
      endpoint({
        returns: [p.ResponseSpec({ model: Event })],
        handler: () =>
          new JsonResponse({ at: new Date(Date.UTC(2026, 2, 2, 9, 30)), history: [{ at: new Date(0) }] }),
      }),
      ["GET"],
      { settings: { RESPONSES: { validate } } },
    );
    const response = await server.fetch("/event");
    expect([response.status, await response.text()]).toEqual([
      200,
      '{"at":"2026-03-02T09:30:00.000Z","history":[{"at":"1970-01-01T00:00:00.000Z"}]}',
    ]);
  });
});

// FastAPI's extra_data_types tutorial: a UUID in the path; dates, a duration and a time in the body.
describe("extra data types in and out, as FastAPI's extra_data_types tutorial sends them", () => {
  const Schedule = z
    .object({
      start_datetime: z.date(),
      end_datetime: z.date(),
      process_after: z.number().meta({ description: "Seconds" }),
      repeat_at: z.iso.time().optional(),
    })
    .meta({ id: "Schedule" });
  const Answer = Schedule.extend({ item_id: z.uuid(), start_process: z.date(), duration: z.number() });
  const schedule = endpoint({
    params: { item_id: p.Path(z.uuid()), schedule: p.Json(Schedule) },
    returns: [p.ResponseSpec({ model: Answer })],
    handler(_request, { item_id, schedule }) {
      const start_process = new Date(schedule.start_datetime.getTime() + schedule.process_after * 1000);
      const duration = (schedule.end_datetime.getTime() - start_process.getTime()) / 1000;
      return new JsonResponse({ item_id, ...schedule, start_process, duration });
    },
  });
  const put = (body: unknown) => ({ ...post(body), method: "PUT" });
  const id = "ff97dd87-a4a5-4a12-b412-cde99f33e00e";

  it("reads a UUID and dates, and answers the dates as ISO strings", async () => {
    const server = await serveEndpoint("/items/{item_id}", schedule, ["PUT"]);
    const body = {
      start_datetime: "2018-12-22T14:00:00+00:00",
      end_datetime: "2018-12-24T15:00:00+00:00",
      repeat_at: "15:30:00",
      process_after: 300,
    };
    expect(await jsonOf(server.fetch(`/items/${id}`, put(body)))).toEqual({
      status: 200,
      body: {
        item_id: id,
        start_datetime: "2018-12-22T14:00:00.000Z",
        end_datetime: "2018-12-24T15:00:00.000Z",
        repeat_at: "15:30:00",
        process_after: 300,
        start_process: "2018-12-22T14:05:00.000Z",
        duration: 176_100,
      },
    });
  });

  it("refuses an id that is no UUID and a date that is none, quoting them", async () => {
    const server = await serveEndpoint("/items/{item_id}", schedule, ["PUT"]);
    const body = {
      start_datetime: "not a date",
      end_datetime: "2018-12-24T15:00:00+00:00",
      process_after: 300,
    };
    expect(await jsonOf(server.fetch("/items/nope", put(body)))).toEqual({
      status: 422,
      body: {
        detail: [
          { loc: ["path", "item_id"], msg: "Invalid UUID", type: "invalid_format", input: "nope" },
          {
            loc: ["body", "start_datetime"],
            msg: "Invalid input: expected date, received string",
            type: "invalid_type",
            input: "not a date",
          },
        ],
      },
    });
  });

  it("documents the UUID and the dates by their formats, the time by its pattern and format time-local", () => {
    const doc = createApp({
      routes: [path("/items/{item_id}", { endpoint: schedule, methods: ["PUT"] })],
    }).openapi() as any;
    expect(doc.paths["/items/{item_id}"].put.parameters).toEqual([
      { name: "item_id", in: "path", required: true, schema: { type: "string", format: "uuid" } },
    ]);
    expect(doc.components.schemas.Schedule.properties).toEqual({
      start_datetime: { type: "string", format: "date-time" },
      end_datetime: { type: "string", format: "date-time" },
      process_after: { type: "number", description: "Seconds" },
      // Zod names no format for a time without an offset (JSON Schema's "time" requires one): the
      // OpenAPI format registry's "time-local" is one without.
      repeat_at: {
        type: "string",
        format: "time-local",
        pattern: "^(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d+)?)?$",
      },
    });
  });
});
