import {
  exceptionHandler,
  HttpError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  RequestValidationError,
  UnauthorizedError,
} from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { httpBearer } from "unruffled/security";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { jsonOf, serve } from "../support/serve.ts";

class InsufficientCredit extends Error {
  readonly missing: number;
  constructor(missing: number) {
    super(`${missing} credits missing`);
    this.missing = missing;
  }
}
class LateEnrolment extends InsufficientCredit {}

const failing = endpoint({
  params: { kind: p.Query(z.enum(["credit", "late", "crash", "http", "async"])) },
  returns: JsonResponse,
  async handler(_request, { kind }) {
    if (kind === "credit") throw new InsufficientCredit(3);
    if (kind === "late") throw new LateEnrolment(1);
    if (kind === "http") throw new HttpError(409, "Already enrolled");
    if (kind === "async") await Promise.reject(new Error("database said no: SELECT * FROM secrets"));
    throw new Error("boom at /srv/app/secret.ts");
  },
});
const routes = [path("/fail", { endpoint: failing })];
const quietLogger = { error: vi.fn() };
const bearer = httpBearer({ verify: (token) => (token === "ok" ? { name: "ann" } : null) });

describe("errors become responses through exception handlers", () => {
  it("answers RequestValidationError with 422 and detail by default", async () => {
    const server = await serve(routes, { logger: quietLogger });
    expect(await jsonOf(server.fetch("/fail?kind=nope"))).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["query", "kind"],
            msg: 'Invalid option: expected one of "credit"|"late"|"crash"|"http"|"async"',
            type: "invalid_value",
            input: "nope",
          },
        ],
      },
    });
  });

  it("answers an HttpError with its status and message", async () => {
    const server = await serve(routes, { logger: quietLogger });
    expect(await jsonOf(server.fetch("/fail?kind=http"))).toEqual({
      status: 409,
      body: { detail: "Already enrolled" },
    });
  });

  it("answers an unexpected error with a 500 that leaks no message or stack", async () => {
    const logger = { error: vi.fn() };
    const server = await serve(routes, { logger });
    expect(await jsonOf(server.fetch("/fail?kind=crash"))).toEqual({
      status: 500,
      body: { detail: "Internal Server Error" },
    });
    expect(await jsonOf(server.fetch("/fail?kind=async"))).toEqual({
      status: 500,
      body: { detail: "Internal Server Error" },
    });
    expect(logger.error).toHaveBeenCalledTimes(2);
    expect(logger.error.mock.calls[0]![0]).toMatchObject({
      method: "GET",
      path: "/fail",
      err: new Error("boom at /srv/app/secret.ts"),
    });
  });

  it("adds the error and its stack to the 500 when DEBUG is on", async () => {
    const server = await serve(routes, { settings: { DEBUG: true }, logger: quietLogger });
    const { status, body } = await jsonOf(server.fetch("/fail?kind=crash"));
    expect(status).toBe(500);
    // docs/settings.md: {"detail": "Internal Server Error", "error": {"name", "message", "stack"}}, nothing more.
    expect(body).toEqual({
      detail: "Internal Server Error",
      error: {
        name: "Error",
        message: "boom at /srv/app/secret.ts",
        stack: expect.stringMatching(/^Error: boom at \/srv\/app\/secret\.ts\n {4}at /),
      },
    });
  });

  it("uses the app's handler for a class and for its subclasses, the nearest one winning", async () => {
    const server = await serve(routes, {
      logger: quietLogger,
      exceptionHandlers: [
        exceptionHandler(
          InsufficientCredit,
          (error) => new JsonResponse({ code: 402, missing: error.missing }, { status: 402 }),
        ),
        exceptionHandler(LateEnrolment, () => new JsonResponse({ code: 423 }, { status: 423 })),
      ],
    });
    expect(await jsonOf(server.fetch("/fail?kind=credit"))).toEqual({
      status: 402,
      body: { code: 402, missing: 3 },
    });
    expect(await jsonOf(server.fetch("/fail?kind=late"))).toEqual({ status: 423, body: { code: 423 } });
  });

  it("lets an app replace the validation, not-found and method handlers", async () => {
    const envelope = (code: number, message: string, data: unknown = null) =>
      new JsonResponse({ code, message, data });
    const server = await serve(routes, {
      logger: quietLogger,
      exceptionHandlers: [
        exceptionHandler(RequestValidationError, (error) =>
          envelope(422, "invalid request", { errors: error.issues }),
        ),
        exceptionHandler(NotFoundError, (_error, request) => envelope(404, `no route ${request.path}`)),
        exceptionHandler(HttpError, (error) => envelope(error.status, error.message)),
      ],
    });
    expect(await jsonOf(server.fetch("/missing"))).toEqual({
      status: 200,
      body: { code: 404, message: "no route /missing", data: null },
    });
    expect(await jsonOf(server.fetch("/fail", { method: "POST" }))).toEqual({
      status: 200,
      body: { code: 405, message: "Method Not Allowed; allowed: GET, HEAD", data: null },
    });
    expect(await jsonOf(server.fetch("/fail"))).toEqual({
      status: 200,
      body: {
        code: 422,
        message: "invalid request",
        data: { errors: [{ loc: ["query", "kind"], msg: "Field required", type: "missing", input: null }] },
      },
    });
  });

  it("hands a handler, async or not, the request and what the error carries: allowed, limit, the challenge", async () => {
    const upload = endpoint({
      params: { body: p.Json(z.object({ text: z.string() })), user: p.Security(bearer) },
      returns: JsonResponse,
      handler: (_request, { body }) => new JsonResponse(body),
    });
    const server = await serve([path("/notes", { endpoint: upload, methods: ["PUT"] })], {
      logger: quietLogger,
      settings: { LIMITS: { body_size: 16 } },
      exceptionHandlers: [
        exceptionHandler(MethodNotAllowedError, async (error, request) => {
          await Promise.resolve();
          return new JsonResponse({ method: request.method, allowed: error.allowed }, { status: 405 });
        }),
        exceptionHandler(
          PayloadTooLargeError,
          (error, request) => new JsonResponse({ path: request.path, limit: error.limit }, { status: 413 }),
        ),
        exceptionHandler(
          UnauthorizedError,
          (error) => new JsonResponse({ challenge: error.headers["www-authenticate"] }, { status: 401 }),
        ),
      ],
    });
    expect(await jsonOf(server.fetch("/notes", { method: "DELETE" }))).toEqual({
      status: 405,
      body: { method: "DELETE", allowed: ["PUT"] },
    });
    const big = {
      method: "PUT",
      headers: { authorization: "Bearer ok", "content-type": "application/json" },
    };
    expect(
      await jsonOf(server.fetch("/notes", { ...big, body: JSON.stringify({ text: "x".repeat(64) }) })),
    ).toEqual({
      status: 413,
      body: { path: "/notes", limit: 16 },
    });
    expect(await jsonOf(server.fetch("/notes", { method: "PUT", body: "{}" }))).toEqual({
      status: 401,
      body: { challenge: "Bearer" },
    });
  });

  it("answers 500 when a handler returns something that is not a response", async () => {
    const logger = { error: vi.fn() };
    const wrong = endpoint({ returns: JsonResponse, handler: () => ({ code: 0 }) as never });
    const server = await serve([path("/wrong", { endpoint: wrong, name: "wrong" })], { logger });
    expect(await jsonOf(server.fetch("/wrong"))).toEqual({
      status: 500,
      body: { detail: "Internal Server Error" },
    });
    expect(String(logger.error.mock.calls[0]![0].err)).toBe(
      'TypeError: endpoint "wrong" (GET /wrong) returned object, not a response; return a JsonResponse, a PlainTextResponse or another HttpResponse.',
    );
  });

  it("answers 500 when an exception handler itself fails", async () => {
    const server = await serve(routes, {
      logger: quietLogger,
      exceptionHandlers: [
        exceptionHandler(HttpError, () => {
          throw new Error("handler bug");
        }),
      ],
    });
    expect(await jsonOf(server.fetch("/fail?kind=http"))).toEqual({
      status: 500,
      body: { detail: "Internal Server Error" },
    });
  });
});
