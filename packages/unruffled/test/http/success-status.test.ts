// A declared success status is the default, and a success or redirect answer never sends a field
// that no declared success model names, whatever its status (docs/responses.md, "Status codes").
import { EventStreamResponse, HttpResponse, JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { serve } from "../support/serve.ts";

const Row = z.object({ id: z.int(), email: z.string() });
const Accepted = z.object({ job: z.string() });
const NotFound = z.object({ detail: z.string() });
const row = { id: 7, email: "ann@example.edu", password_hash: "$argon2id$secret", job: "j-1" };

async function answer(routes: Parameters<typeof serve>[0], url: string, validate: "strict" | "off") {
  const logger = { error: vi.fn() };
  const server = await serve(routes, { settings: { RESPONSES: { validate } }, logger });
  const response = await server.fetch(url);
  return { status: response.status, body: await response.text(), logger };
}

describe("the declared success status", () => {
  it("is the status of an answer built without one, and its model filters it", async () => {
    const create = endpoint({
      returns: [
        p.ResponseSpec({ model: Row, code: "201" }),
        p.ResponseSpec({ model: NotFound, code: "404" }),
      ],
      handler: () => new JsonResponse(row),
    });
    for (const validate of ["strict", "off"] as const) {
      const { status, body } = await answer([path("/rows", { endpoint: create })], "/rows", validate);
      expect([status, body]).toEqual([201, '{"id":7,"email":"ann@example.edu"}']);
    }
  });

  it("is the default for an event stream too", async () => {
    const follow = endpoint({
      returns: [p.ResponseSpec({ model: Row, code: "202", content_type: "text/event-stream" })],
      handler: () => new EventStreamResponse([{ data: row }]),
    });
    const { status, body } = await answer([path("/follow", { endpoint: follow })], "/follow", "off");
    expect([status, body]).toEqual([202, ': connected\n\ndata: {"id":7,"email":"ann@example.edu"}\n\n']);
  });

  it("does not replace a status the handler gave, 200 included", async () => {
    const created = endpoint({
      returns: [p.ResponseSpec({ model: Row, code: "201" })],
      handler: () => JsonResponse.unchecked(row, { status: 200 }),
    });
    const { status, body } = await answer([path("/rows", { endpoint: created })], "/rows", "off");
    expect([status, body]).toEqual([200, '{"id":7,"email":"ann@example.edu"}']);
  });

  it("stays 200 when the endpoint declares several success statuses", async () => {
    const either = endpoint({
      returns: [
        p.ResponseSpec({ model: Row, code: "201" }),
        p.ResponseSpec({ model: Accepted, code: "202" }),
      ],
      handler: () => JsonResponse.unchecked(row),
    });
    const { status, body } = await answer([path("/either", { endpoint: either })], "/either", "off");
    // Through the union of the success models: the first that accepts the row keeps its fields.
    expect([status, body]).toEqual([200, '{"id":7,"email":"ann@example.edu"}']);
  });
});

describe("a success answer of a status with no model of its own", () => {
  it("goes through the endpoint's success models, in both modes: no undeclared field leaves", async () => {
    const accepted = endpoint({
      returns: [
        p.ResponseSpec({ model: Accepted, code: "202" }),
        p.ResponseSpec({ model: NotFound, code: "404" }),
      ],
      handler: () => JsonResponse.unchecked(row, { status: 203 }),
    });
    for (const validate of ["strict", "off"] as const) {
      const { status, body } = await answer([path("/jobs", { endpoint: accepted })], "/jobs", validate);
      expect([status, body]).toEqual([203, '{"job":"j-1"}']);
    }
  });

  it("is a 500 naming the endpoint and the status when no success model accepts it", async () => {
    const accepted = endpoint({
      returns: [p.ResponseSpec({ model: Accepted, code: "202" })],
      handler: () => JsonResponse.unchecked({ id: 1 }, { status: 200 }),
    });
    const { status, body, logger } = await answer(
      [path("/jobs", { endpoint: accepted, name: "jobs" })],
      "/jobs",
      "strict",
    );
    expect([status, body]).toEqual([500, '{"detail":"Internal Server Error"}']);
    const error = logger.error.mock.calls[0]![0].err as Error;
    expect(error.message).toBe(
      'endpoint "jobs" (GET /jobs) answered 200 with a body that its model refuses: job: Invalid input: expected string, received undefined',
    );
  });

  it("is a 500 when the endpoint declares no success model at all", async () => {
    const onlyErrors = endpoint({
      returns: [p.ResponseSpec({ model: NotFound, code: "404" })],
      handler: () => JsonResponse.unchecked(row),
    });
    for (const validate of ["strict", "off"] as const) {
      const { status, body, logger } = await answer(
        [path("/rows", { endpoint: onlyErrors, name: "rows" })],
        "/rows",
        validate,
      );
      expect([status, body]).toEqual([500, '{"detail":"Internal Server Error"}']);
      expect((logger.error.mock.calls[0]![0].err as Error).message).toBe(
        'endpoint "rows" (GET /rows) answered 200 with a JSON body, but the endpoint declares no model for a success status; declare one (p.ResponseSpec({ code: "200", model })) or name a response class in returns',
      );
    }
  });

  it("an event stream's data goes through the declared event models", async () => {
    const follow = endpoint({
      returns: [p.ResponseSpec({ model: Accepted, code: "202", content_type: "text/event-stream" })],
      handler: () => new EventStreamResponse([{ data: row }], { status: 200 }),
    });
    const { status, body } = await answer([path("/follow", { endpoint: follow })], "/follow", "off");
    expect([status, body]).toEqual([200, ': connected\n\ndata: {"job":"j-1"}\n\n']);
  });

  it("a redirect's JSON body goes through the success models too, in both modes", async () => {
    const moved = endpoint({
      returns: [p.ResponseSpec({ model: Row })],
      handler: () => JsonResponse.unchecked(row, { status: 303, headers: { location: "/rows/7" } }),
    });
    for (const validate of ["strict", "off"] as const) {
      const logger = { error: vi.fn() };
      const server = await serve([path("/rows", { endpoint: moved })], {
        settings: { RESPONSES: { validate } },
        logger,
      });
      const response = await server.fetch("/rows", { redirect: "manual" });
      expect([response.status, response.headers.get("location"), await response.text()]).toEqual([
        303,
        "/rows/7",
        '{"id":7,"email":"ann@example.edu"}',
      ]);
    }
  });

  it("a redirect's JSON body is a 500 when the endpoint declares no success model at all", async () => {
    const onlyErrors = endpoint({
      returns: [p.ResponseSpec({ model: NotFound, code: "404" })],
      handler: () => JsonResponse.unchecked(row, { status: 302, headers: { location: "/elsewhere" } }),
    });
    const logger = { error: vi.fn() };
    const server = await serve([path("/rows", { endpoint: onlyErrors, name: "rows" })], { logger });
    const response = await server.fetch("/rows", { redirect: "manual" });
    expect([response.status, await response.text()]).toEqual([500, '{"detail":"Internal Server Error"}']);
    expect((logger.error.mock.calls[0]![0].err as Error).message).toBe(
      'endpoint "rows" (GET /rows) answered 302 with a JSON body, but the endpoint declares no model for a success status; declare one (p.ResponseSpec({ code: "302", model })) or name a response class in returns',
    );
  });

  it("an error status without a model is sent as the handler wrote it", async () => {
    const missing = endpoint({
      returns: [p.ResponseSpec({ model: Row, code: "201" })],
      handler: () => JsonResponse.unchecked({ detail: "gone", hint: "try 1" }, { status: 410 }),
    });
    const { status, body } = await answer([path("/gone", { endpoint: missing })], "/gone", "strict");
    expect([status, body]).toEqual([410, '{"detail":"gone","hint":"try 1"}']);
  });
});

describe("audit: docs/responses.md, status codes", () => {
  it("a redirect with its own ResponseSpec goes through that model, in both modes", async () => {
    const Moved = z.object({ moved_to: z.string() });
    const moved = endpoint({
      returns: [p.ResponseSpec({ model: Row }), p.ResponseSpec({ code: "303", model: Moved })],
      handler: () =>
        JsonResponse.unchecked(
          { ...row, moved_to: "/rows/7" },
          { status: 303, headers: { location: "/rows/7" } },
        ),
    });
    for (const validate of ["strict", "off"] as const) {
      const server = await serve([path("/rows", { endpoint: moved })], {
        settings: { RESPONSES: { validate } },
      });
      const response = await server.fetch("/rows", { redirect: "manual" });
      expect([validate, response.status, await response.text()]).toEqual([
        validate,
        303,
        '{"moved_to":"/rows/7"}',
      ]);
    }
  });

  it("a redirect without a body is not concerned, even where no success model is declared", async () => {
    const onlyErrors = endpoint({
      returns: [p.ResponseSpec({ model: NotFound, code: "404" })],
      handler: () => new HttpResponse(null, { status: 302, headers: { location: "/elsewhere" } }) as never,
    });
    for (const validate of ["strict", "off"] as const) {
      const logger = { error: vi.fn() };
      const server = await serve([path("/go", { endpoint: onlyErrors })], {
        settings: { RESPONSES: { validate } },
        logger,
      });
      const response = await server.fetch("/go", { redirect: "manual" });
      expect([validate, response.status, response.headers.get("location"), await response.text()]).toEqual([
        validate,
        302,
        "/elsewhere",
        "",
      ]);
      expect(logger.error).not.toHaveBeenCalled();
    }
  });

  it("a JSON body whose status has no model goes through the JSON success models only: none is a 500 in both modes", async () => {
    const follow = endpoint({
      name: "follow",
      returns: [p.ResponseSpec({ model: Row, content_type: "text/event-stream" })],
      handler: () => JsonResponse.unchecked(row, { status: 203 }) as never,
    });
    for (const validate of ["strict", "off"] as const) {
      const { status, body, logger } = await answer(
        [path("/follow", { endpoint: follow })],
        "/follow",
        validate,
      );
      expect([validate, status, body, logger.error.mock.calls.length]).toEqual([
        validate,
        500,
        '{"detail":"Internal Server Error"}',
        1,
      ]);
      expect((logger.error.mock.calls[0]![0].err as Error).message).toBe(
        'endpoint "follow" (GET /follow) answered 203 with a JSON body, a status it declares no ResponseSpec for, where its success ResponseSpecs declare only event streams',
      );
    }
  });

  it("an event stream whose status has no model goes through the event success models only: none is a 500", async () => {
    const rows = endpoint({
      name: "rows",
      returns: [p.ResponseSpec({ model: Row })],
      handler: () => new EventStreamResponse([{ data: row }], { status: 203 }) as never,
    });
    for (const validate of ["strict", "off"] as const) {
      const { status, body, logger } = await answer([path("/rows", { endpoint: rows })], "/rows", validate);
      expect([validate, status, body]).toEqual([validate, 500, '{"detail":"Internal Server Error"}']);
      expect((logger.error.mock.calls[0]![0].err as Error).message).toBe(
        'endpoint "rows" (GET /rows) answered 203 with an event stream, a status it declares no ResponseSpec for, where its success ResponseSpecs declare only JSON bodies',
      );
    }
  });
});
