import {
  createApp,
  exceptionHandler,
  HttpError,
  type ResponseValidationError,
  type Settings,
} from "unruffled";
import { EventStreamResponse, JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { testClient } from "unruffled/testing";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { strictResponses } from "../../src/app/settings.ts";
import { jsonOf, serve } from "../support/serve.ts";

// Some answers here are 100 MB strings: on a busy machine they take seconds, never a race with the clock.
vi.setConfig({ testTimeout: 180_000 });

const Student = z.object({
  id: z.int(),
  name: z.string().max(20),
  nickname: z.string().optional(),
  email: z.email(),
});
const StudentPage = z.object({
  code: z.int().default(0),
  message: z.string().default("success"),
  data: z.array(Student),
});

const row = { id: 1, name: "Zoë", email: "zoe@example.edu", password_hash: "$argon2id$secret" };

/** An endpoint declaring `StudentPage` whose handler answers `body` (typed loosely, as a bug would be). */
function answering(body: unknown, status = 200) {
  return endpoint({
    returns: [p.ResponseSpec({ model: StudentPage })],
    handler: () => JsonResponse.unchecked(body, { status }),
  });
}

/** An app answering `body` at /page in the given mode, with its error log. */
async function servedAnswering(body: unknown, validate: "strict" | "off") {
  return servedMaking(() => body, validate);
}

/**
 * An app whose endpoint "page" at /page declares `model` and answers what `make()` gives, made anew
 * for each request so that a big body is freed once it is sent; with its error log.
 */
async function servedMaking(make: () => unknown, validate: "strict" | "off", model: z.ZodType = StudentPage) {
  const logger = { error: vi.fn() };
  const page = endpoint({
    returns: [p.ResponseSpec({ model })],
    handler: () => JsonResponse.unchecked(make()),
  });
  const server = await serve([path("/page", { endpoint: page, name: "page" })], {
    settings: { RESPONSES: { validate } },
    logger,
  });
  return { server, logger };
}

const INTERNAL_ERROR = [500, '{"detail":"Internal Server Error"}', "34"];

/** Status, body and Content-Length of a small answer. */
async function whole(response: Promise<Response>): Promise<unknown[]> {
  const resolved = await response;
  return [resolved.status, await resolved.text(), resolved.headers.get("content-length")];
}

/** The message of the error logged for the last 500. */
function loggedError(logger: { error: ReturnType<typeof vi.fn> }): string {
  const error = logger.error.mock.calls.at(-1)![0].err as Error;
  return `${error.name}: ${error.message}`;
}

describe("answers through their declared models", () => {
  it("sends only the fields the model declares, at every depth, with its defaults", async () => {
    for (const validate of ["strict", "off"] as const) {
      const { server } = await servedAnswering(
        { data: [row, { ...row, id: 2, nickname: "Z" }], debug: true },
        validate,
      );
      const response = await server.fetch("/page");
      const text = await response.text();
      expect(text).toBe(
        '{"code":0,"message":"success","data":[{"id":1,"name":"Zoë","email":"zoe@example.edu"},{"id":2,"name":"Zoë","nickname":"Z","email":"zoe@example.edu"}]}',
      );
      expect(response.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    }
  });

  it("keeps what the handler gave in response.data; only the body is filtered", async () => {
    const app = createApp({ routes: [path("/page", { endpoint: answering({ data: [row] }) })] });
    const response = await testClient(app).get("/page");
    expect((response.response as JsonResponse).data).toEqual({ data: [row] });
    expect(response.json()).toEqual({
      code: 0,
      message: "success",
      data: [{ id: 1, name: "Zoë", email: "zoe@example.edu" }],
    });
  });

  it("writes through the model even when the handler read the body before returning it", async () => {
    const early = endpoint({
      returns: [p.ResponseSpec({ model: Student })],
      handler: () => {
        const response = new JsonResponse(row);
        expect(response.body).toContain("password_hash");
        return response;
      },
    });
    const response = await testClient(createApp({ routes: [path("/early", { endpoint: early })] })).get(
      "/early",
    );
    expect(response.text).toBe('{"id":1,"name":"Zoë","email":"zoe@example.edu"}');
  });

  it("sends a status the endpoint declares no model for as the handler wrote it", async () => {
    const missing = endpoint({
      returns: [p.ResponseSpec({ model: Student })],
      handler: () => JsonResponse.unchecked({ detail: "No student 9", hint: "try 1" }, { status: 404 }),
    });
    const server = await serve([path("/missing", { endpoint: missing })]);
    expect(await jsonOf(server.fetch("/missing"))).toEqual({
      status: 404,
      body: { detail: "No student 9", hint: "try 1" },
    });
  });

  it("refuses, in both modes, a JSON body where the status declares an event stream, and the other way round", async () => {
    const SeatCount = z.object({ seats_left: z.int() });
    // The types refuse both; a cast (or untyped code) gets past them.
    const jsonForEvents = endpoint({
      returns: [p.ResponseSpec({ model: SeatCount, content_type: "text/event-stream" })],
      handler: () => JsonResponse.unchecked({ seats_left: 3, password_hash: "x" }) as never,
    });
    const eventsForJson = endpoint({
      returns: [p.ResponseSpec({ model: Student })],
      handler: () => new EventStreamResponse([{ data: row }]) as never,
    });
    for (const validate of ["strict", "off"] as const) {
      const logger = { error: vi.fn() };
      const server = await serve(
        [
          path("/json-for-events", { endpoint: jsonForEvents, name: "json_for_events" }),
          path("/events-for-json", { endpoint: eventsForJson, name: "events_for_json" }),
        ],
        { settings: { RESPONSES: { validate } }, logger },
      );
      expect(await jsonOf(server.fetch("/json-for-events"))).toEqual({
        status: 500,
        body: { detail: "Internal Server Error" },
      });
      expect(loggedError(logger)).toBe(
        'ResponseValidationError: endpoint "json_for_events" (GET /json-for-events) answered 200 with a JSON body where its ResponseSpec declares an event stream',
      );
      expect(await jsonOf(server.fetch("/events-for-json"))).toEqual({
        status: 500,
        body: { detail: "Internal Server Error" },
      });
      expect(loggedError(logger)).toBe(
        'ResponseValidationError: endpoint "events_for_json" (GET /events-for-json) answered 200 with an event stream where its ResponseSpec declares a JSON body',
      );
    }
  });

  it("does not hold an exception handler's answer to the endpoint's model", async () => {
    const failing = endpoint({
      returns: [p.ResponseSpec({ model: Student })],
      handler: () => {
        throw new HttpError(409, "taken");
      },
    });
    const server = await serve([path("/failing", { endpoint: failing })], {
      exceptionHandlers: [
        exceptionHandler(
          HttpError,
          (error) => new JsonResponse({ code: error.status, message: error.message, data: null }),
        ),
      ],
    });
    expect(await jsonOf(server.fetch("/failing"))).toEqual({
      status: 200,
      body: { code: 409, message: "taken", data: null },
    });
  });
});

describe("strict mode (RESPONSES.validate)", () => {
  it("answers 500 for a body its model refuses; the log names the endpoint, the status and the field", async () => {
    const { server, logger } = await servedAnswering(
      { data: [row, { ...row, email: "not an address" }] },
      "strict",
    );
    expect(await jsonOf(server.fetch("/page"))).toEqual({
      status: 500,
      body: { detail: "Internal Server Error" },
    });
    expect(loggedError(logger)).toBe(
      'ResponseValidationError: endpoint "page" (GET /page) answered 200 with a body that its model refuses: data[1].email: Invalid email address',
    );
    const error = logger.error.mock.calls.at(-1)![0].err as ResponseValidationError;
    expect([error.endpoint, error.status, error.path]).toEqual([
      'endpoint "page" (GET /page)',
      200,
      "data[1].email",
    ]);
  });

  it("off: Zod's rules are not checked, but a value of the wrong kind is still a 500 naming the field", async () => {
    const tooLong = await servedAnswering(
      { data: [{ ...row, name: "A name past twenty characters" }] },
      "off",
    );
    expect((await jsonOf(tooLong.server.fetch("/page"))).status).toBe(200);
    const wrongKind = await servedAnswering({ data: [{ ...row, name: 7 }] }, "off");
    expect(await jsonOf(wrongKind.server.fetch("/page"))).toEqual({
      status: 500,
      body: { detail: "Internal Server Error" },
    });
    expect(loggedError(wrongKind.logger)).toBe(
      'ResponseValidationError: endpoint "page" (GET /page) answered 200 with a body that its model refuses: data[0].name: Invalid input: expected string, received number',
    );
  });

  it("an extra key that Zod refuses rather than strips: 500 in strict mode, left out when off; outside a partial record's enum, 500 in both", async () => {
    const cases = [
      {
        model: z.strictObject({ id: z.int() }),
        body: { id: 1, password_hash: "x" },
        strict: 'Unrecognized key: "password_hash"',
        off: '{"id":1}',
      },
      {
        model: z.object({ levels: z.record(z.enum(["low", "high"]), z.int()) }),
        body: { levels: { low: 1, high: 2, password_hash: "x" } },
        strict: 'levels: Unrecognized key: "password_hash"',
        off: '{"levels":{"low":1,"high":2}}',
      },
      {
        model: z.object({ names: z.partialRecord(z.enum(["en", "fr"]), z.string()) }),
        body: { names: { en: "Zoe", password_hash: "x" } },
        strict: 'names: Unrecognized key: "password_hash"',
        off: undefined,
      },
    ];
    for (const { model, body, strict, off } of cases) {
      for (const validate of ["strict", "off"] as const) {
        const { server, logger } = await servedMaking(() => body, validate, model);
        const refused = validate === "strict" || off === undefined;
        expect(await whole(server.fetch("/page"))).toEqual(
          refused ? INTERNAL_ERROR : [200, off, String(off!.length)],
        );
        if (refused) {
          expect(loggedError(logger)).toBe(
            `ResponseValidationError: endpoint "page" (GET /page) answered 200 with a body that its model refuses: ${strict}`,
          );
        } else expect(logger.error).not.toHaveBeenCalled();
      }
    }
  });

  it("is the default under tests (NODE_ENV=test or Vitest) and with DEBUG; off otherwise", () => {
    expect(strictResponses({}, {})).toBe(false);
    expect(strictResponses({}, { NODE_ENV: "test" })).toBe(true);
    expect(strictResponses({}, { VITEST: "true" })).toBe(true);
    expect(strictResponses({ DEBUG: true }, {})).toBe(true);
    expect(strictResponses({ DEBUG: true, RESPONSES: { validate: "off" } }, { VITEST: "true" })).toBe(false);
    expect(strictResponses({ RESPONSES: { validate: "strict" } }, {})).toBe(true);
  });

  it("refuses an unknown RESPONSES key or value when the app is built", () => {
    const build = (settings: Settings) => () => createApp({ settings, routes: [] });
    expect(build({ RESPONSES: { check: true } as never })).toThrow(
      'Unknown RESPONSES setting "check"; use validate.',
    );
    expect(build({ RESPONSES: { validate: "loose" as never } })).toThrow(
      'The RESPONSES setting "validate" must be "strict" or "off", got "loose"',
    );
  });
});

describe("bad answers are a clear 500, never a crash or a half-written body", () => {
  const HUNDRED_MB = 100 * 1024 * 1024;
  // Bodies are made by the handler, per request: a 100 MB string is not kept for the whole file.
  const wrongKinds: { what: string; make: () => unknown; problem: string }[] = [
    {
      what: "a required field left undefined",
      make: () => ({ data: [{ ...row, email: undefined }] }),
      problem: "data[0].email: Invalid input: expected string, received undefined",
    },
    {
      what: "NaN",
      make: () => ({ data: [{ ...row, id: Number.NaN }] }),
      problem: "data[0].id: Invalid input: expected number, received NaN",
    },
    {
      what: "a Date object where the model says string",
      make: () => ({ data: [{ ...row, email: new Date(0) }] }),
      problem: "data[0].email: Invalid input: expected string, received Date",
    },
    {
      what: "a BigInt",
      make: () => ({ data: [{ ...row, id: 10n }] }),
      problem: "data[0].id: Invalid input: expected number, received bigint",
    },
  ];
  const tooLong = {
    what: "a 100 MB string past the model's maximum length",
    make: () => ({ data: [{ ...row, name: "x".repeat(HUNDRED_MB) }] }),
    problem: "data[0].name: Too big: expected string to have <=20 characters",
  };

  // Off mode answers the same 500 for a wrong kind: the picker refuses the kind, and Zod names the field.
  it.each([
    ...[...wrongKinds, tooLong].map((bad) => ({ ...bad, mode: "strict" as const })),
    ...wrongKinds.map((bad) => ({ ...bad, mode: "off" as const })),
  ])("$what: $mode mode answers 500 and logs the field", async ({ make, problem, mode }) => {
    const { server, logger } = await servedMaking(make, mode);
    expect(await whole(server.fetch("/page"))).toEqual(INTERNAL_ERROR);
    expect(loggedError(logger)).toBe(
      `ResponseValidationError: endpoint "page" (GET /page) answered 200 with a body that its model refuses: ${problem}`,
    );
    // The server goes on answering.
    expect((await server.fetch("/missing")).status).toBe(404);
  });

  it("a 100 MB string past the model's maximum length: off mode, which does not check lengths, sends it whole", async () => {
    const { server, logger } = await servedMaking(tooLong.make, "off");
    const response = await server.fetch("/page");
    const text = await response.text();
    const [head, tail] = [
      '{"code":0,"message":"success","data":[{"id":1,"name":"',
      '","email":"zoe@example.edu"}]}',
    ];
    const length = head.length + HUNDRED_MB + tail.length;
    // Lengths and ends only: a failed comparison would print 100 MB.
    expect([response.status, response.headers.get("content-length"), text.length]).toEqual([
      200,
      String(length),
      length,
    ]);
    expect([text.slice(0, head.length + 1), text.slice(-tail.length - 1)]).toEqual([`${head}x`, `x${tail}`]);
    expect(logger.error).not.toHaveBeenCalled();
  });

  it("JSON longer than V8's longest string (100 MB of control characters, each escaped as \\u0001) is a 500 in both modes, and the server lives on", async () => {
    const Text = z.object({ text: z.string() });
    for (const validate of ["strict", "off"] as const) {
      const { server, logger } = await servedMaking(() => ({ text: "\u0001".repeat(100e6) }), validate, Text);
      expect(await whole(server.fetch("/page"))).toEqual(INTERNAL_ERROR);
      expect(loggedError(logger)).toBe(
        'ResponseValidationError: endpoint "page" (GET /page) answered 200 with a body that could not be written: Invalid string length',
      );
      expect((await server.fetch("/missing")).status).toBe(404);
    }
  });

  it("an ordinary 100 MB string in a plain z.string() goes out whole, in both modes", async () => {
    const Text = z.object({ text: z.string() });
    for (const validate of ["strict", "off"] as const) {
      const { server, logger } = await servedMaking(() => ({ text: "a".repeat(100e6) }), validate, Text);
      const response = await server.fetch("/page");
      const length = '{"text":""}'.length + 100e6;
      // The text is dropped with this iteration; lengths and ends only, never the whole in a message.
      const text = await response.text();
      expect([response.status, response.headers.get("content-length"), text.length]).toEqual([
        200,
        String(length),
        length,
      ]);
      expect([text.slice(0, 10), text.slice(-3)]).toEqual(['{"text":"a', 'a"}']);
      expect(logger.error).not.toHaveBeenCalled();
    }
  });

  it("a cycle in fields the model does not declare is left out with them", async () => {
    const cyclic: Record<string, unknown> = { ...row };
    cyclic.self = cyclic;
    for (const validate of ["strict", "off"] as const) {
      const { server } = await servedAnswering({ data: [cyclic], parent: cyclic }, validate);
      expect(await jsonOf(server.fetch("/page"))).toEqual({
        status: 200,
        body: { code: 0, message: "success", data: [{ id: 1, name: "Zoë", email: "zoe@example.edu" }] },
      });
    }
  });

  it("a BigInt or a cycle where the model allows any value is a 500 saying the body is not JSON", async () => {
    const Loose = z.object({ extra: z.unknown() });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const validate of ["strict", "off"] as const) {
      for (const [value, reason] of [
        [10n, "Do not know how to serialize a BigInt"],
        [cyclic, "Converting circular structure to JSON"],
      ] as const) {
        const logger = { error: vi.fn() };
        const loose = endpoint({
          returns: [p.ResponseSpec({ model: Loose })],
          handler: () => new JsonResponse({ extra: value }),
        });
        const server = await serve([path("/loose", { endpoint: loose, name: "loose" })], {
          settings: { RESPONSES: { validate } },
          logger,
        });
        expect((await jsonOf(server.fetch("/loose"))).status).toBe(500);
        expect(loggedError(logger)).toMatch(
          `ResponseValidationError: endpoint "loose" (GET /loose) answered 200 with a body that is not JSON: ${reason}`,
        );
      }
    }
  });

  it("a cycle through a recursive model is a 500, not a crash", async () => {
    interface Node {
      name: string;
      children: Node[];
    }
    const Node: z.ZodType<Node> = z.object({
      name: z.string(),
      get children() {
        return z.array(Node);
      },
    });
    const loop: Node = { name: "loop", children: [] };
    loop.children.push(loop);
    for (const validate of ["strict", "off"] as const) {
      const logger = { error: vi.fn() };
      const tree = endpoint({
        returns: [p.ResponseSpec({ model: Node })],
        handler: () => new JsonResponse(loop),
      });
      const server = await serve([path("/tree", { endpoint: tree, name: "tree" })], {
        settings: { RESPONSES: { validate } },
        logger,
      });
      expect(await jsonOf(server.fetch("/tree"))).toEqual({
        status: 500,
        body: { detail: "Internal Server Error" },
      });
      // JSON.stringify's message goes on to show where the cycle starts.
      expect(loggedError(logger)).toMatch(
        `ResponseValidationError: endpoint "tree" (GET /tree) answered 200 with ${
          validate === "strict"
            ? "a body that is not JSON: Converting circular structure to JSON"
            : "a body that could not be written: Maximum call stack size exceeded"
        }`,
      );
    }
  });
});

describe("the build-time log", () => {
  it("says at debug level which parts of a model Zod parses instead of the compiled serializer", () => {
    const records: Record<string, unknown>[] = [];
    const Tagged = z.object({ id: z.int(), tags: z.array(z.string().trim()) });
    const tagged = endpoint({
      returns: [p.ResponseSpec({ model: Tagged })],
      handler: () => new JsonResponse({ id: 1, tags: [] }),
    });
    const plain = endpoint({
      returns: [p.ResponseSpec({ model: Student })],
      handler: () => new JsonResponse(row),
    });
    createApp({
      settings: {
        LOGGING: {
          level: "debug",
          destination: { write: (line: string) => void records.push(JSON.parse(line)) },
        },
      },
      routes: [
        path("/tagged", { endpoint: tagged, name: "tagged" }),
        path("/plain", { endpoint: plain, name: "plain" }),
      ],
    });
    expect(
      records.map(({ level, endpoint, status, zodParses, msg }) => ({
        level,
        endpoint,
        status,
        zodParses,
        msg,
      })),
    ).toEqual([
      {
        level: 20,
        endpoint: 'endpoint "tagged" (GET /tagged)',
        status: 200,
        zodParses: ["tags[] (its parse rewrites the value: .trim(), .toLowerCase(), .overwrite(), z.coerce)"],
        msg: 'endpoint "tagged" (GET /tagged) status 200: Zod parses tags[] (its parse rewrites the value: .trim(), .toLowerCase(), .overwrite(), z.coerce); the rest of the model is compiled',
      },
    ]);
  });
});

describe("audit: docs/responses.md, the framework's own error answers go out as written", () => {
  it("a default 409 and 422 are not held to the models the endpoint declares for 409 and 422, in strict mode", async () => {
    const reserve = endpoint({
      params: { count: p.Query(z.int().optional()) },
      returns: [
        p.ResponseSpec({ model: Student }),
        p.ResponseSpec({ code: "409", model: z.object({ detail: z.string(), sku: z.string() }) }),
        p.ResponseSpec({ code: "422", model: z.object({ errors: z.array(z.string()) }) }),
      ],
      handler: () => {
        throw new HttpError(409, "taken");
      },
    });
    const server = await serve([path("/reserve", { endpoint: reserve })], {
      settings: { RESPONSES: { validate: "strict" } },
    });
    expect(await jsonOf(server.fetch("/reserve"))).toEqual({ status: 409, body: { detail: "taken" } });
    expect(await jsonOf(server.fetch("/reserve?count=a"))).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["query", "count"],
            msg: "Invalid input: expected number, received string",
            type: "invalid_type",
            input: "a",
          },
        ],
      },
    });
  });
});
