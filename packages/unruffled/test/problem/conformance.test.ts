// Every answer the framework makes itself, over real HTTP, with ERRORS.format "problem": an
// application/problem+json body with type, title, status, detail and instance (the request id).
import {
  createApp,
  exceptionHandler,
  HttpError,
  HttpProblem,
  problemType,
  RequestValidationError,
} from "unruffled";
import { JsonResponse } from "unruffled/http";
import { type RateLimitStore, rateLimit } from "unruffled/rate-limit";
import { endpoint, p, path } from "unruffled/route";
import { httpBearer } from "unruffled/security";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { serve } from "../support/serve.ts";

const bearer = httpBearer({
  verify: (token) =>
    token === "reader"
      ? { sub: "r", scope: "read" }
      : token === "admin"
        ? { sub: "a", scope: "admin" }
        : null,
});
const Item = z.object({ name: z.string().min(1), tags: z.array(z.string()) });
const OutOfStock = problemType({
  type: "https://example.org/problems/out-of-stock",
  title: "Out of stock",
  status: 409,
  model: z.object({ sku: z.string() }),
});

const create = endpoint({
  params: { item: p.Json(Item), limit: p.Query(z.int().max(10).optional()) },
  returns: JsonResponse,
  handler: (_request, { item }) => new JsonResponse(item, { status: 201 }),
});
const admin = endpoint({
  params: { user: p.Security(bearer, { scopes: ["admin"] }) },
  returns: JsonResponse,
  handler: (_request, { user }) => new JsonResponse(user),
});
const fail = endpoint({
  params: { kind: p.Query(z.enum(["crash", "not-acceptable", "stock"])) },
  returns: [p.ResponseSpec({ model: z.object({}) }), OutOfStock.response],
  handler(_request, { kind }): never {
    if (kind === "not-acceptable") throw new HttpError(406, "Only application/json is offered");
    if (kind === "stock") throw OutOfStock.error('"tea" is out of stock', { sku: "tea" });
    throw new Error("the disk is on fire");
  },
});
const limited = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({ ok: true }) });
const brokenStore: RateLimitStore = {
  kind: "rate-limit-store",
  consume: () => Promise.reject(new Error("connection refused")),
};

const routes = [
  path("/items", { endpoint: create, methods: ["POST"] }),
  path("/admin", { endpoint: admin }),
  path("/fail", { endpoint: fail }),
  path("/limited", { endpoint: limited, rateLimits: [rateLimit({ name: "tiny", limit: 1, window: 3600 })] }),
];

async function problemOf(response: Response) {
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  return { status: response.status, body: await response.json() };
}

const logger = { error: vi.fn() };

describe("with ERRORS.format problem, every answer the framework makes is problem details", async () => {
  const server = await serve(routes, {
    settings: { ERRORS: { format: "problem" }, LIMITS: { body_size: 64 } },
    logger,
  });
  const id = (value: string) => ({ "x-request-id": value });
  const json = { "content-type": "application/json" };

  it("400 for a malformed body", async () => {
    const answer = await server.fetch("/items", {
      method: "POST",
      headers: { ...json, ...id("r400") },
      body: "{",
    });
    expect(await problemOf(answer)).toEqual({
      status: 400,
      body: {
        type: "about:blank",
        title: "Bad Request",
        status: 400,
        detail: expect.stringMatching(/^Malformed JSON/),
        instance: "r400",
      },
    });
  });

  it("401 with the scheme's WWW-Authenticate", async () => {
    const answer = await server.fetch("/admin", { headers: id("r401") });
    expect(answer.headers.get("www-authenticate")).toBe("Bearer");
    expect(await problemOf(answer)).toEqual({
      status: 401,
      body: {
        type: "about:blank",
        title: "Unauthorized",
        status: 401,
        detail: "Not authenticated: send the header Authorization: Bearer <token>",
        instance: "r401",
      },
    });
  });

  it("403 for a missing scope", async () => {
    const answer = await server.fetch("/admin", {
      headers: { authorization: "Bearer reader", ...id("r403") },
    });
    expect(await problemOf(answer)).toEqual({
      status: 403,
      body: {
        type: "about:blank",
        title: "Forbidden",
        status: 403,
        detail: "Not enough permissions: the scope admin is required",
        instance: "r403",
      },
    });
  });

  it("404 for an unknown path", async () => {
    expect(await problemOf(await server.fetch("/nowhere", { headers: id("r404") }))).toEqual({
      status: 404,
      body: {
        type: "about:blank",
        title: "Not Found",
        status: 404,
        detail: "Not Found: /nowhere",
        instance: "r404",
      },
    });
  });

  it("405 with Allow", async () => {
    const answer = await server.fetch("/items", { headers: id("r405") });
    expect(answer.headers.get("allow")).toBe("POST");
    expect(await problemOf(answer)).toEqual({
      status: 405,
      body: {
        type: "about:blank",
        title: "Method Not Allowed",
        status: 405,
        detail: "Method Not Allowed; allowed: POST",
        instance: "r405",
      },
    });
  });

  it("406 raised as an HttpError", async () => {
    expect(await problemOf(await server.fetch("/fail?kind=not-acceptable", { headers: id("r406") }))).toEqual(
      {
        status: 406,
        body: {
          type: "about:blank",
          title: "Not Acceptable",
          status: 406,
          detail: "Only application/json is offered",
          instance: "r406",
        },
      },
    );
  });

  it("413 for a body past its limit", async () => {
    const body = JSON.stringify({ name: "x".repeat(100), tags: [] });
    const answer = await server.fetch("/items", {
      method: "POST",
      headers: { ...json, ...id("r413") },
      body,
    });
    expect(await problemOf(answer)).toEqual({
      status: 413,
      body: {
        type: "about:blank",
        title: "Payload Too Large",
        status: 413,
        detail: expect.stringContaining("64"),
        instance: "r413",
      },
    });
  });

  it("415 for a body of another type", async () => {
    const answer = await server.fetch("/items", {
      method: "POST",
      headers: { "content-type": "text/plain", ...id("r415") },
      body: "hi",
    });
    expect(await problemOf(answer)).toMatchObject({
      status: 415,
      body: { type: "about:blank", title: "Unsupported Media Type", status: 415, instance: "r415" },
    });
  });

  it("422 with each issue located by a JSON Pointer or its parameter's place and name", async () => {
    const answer = await server.fetch("/items?limit=11", {
      method: "POST",
      headers: { ...json, ...id("r422") },
      body: JSON.stringify({ name: "", tags: ["a", 2] }),
    });
    expect(await problemOf(answer)).toEqual({
      status: 422,
      body: {
        type: "about:blank",
        title: "Unprocessable Entity",
        status: 422,
        detail: "The request has 3 invalid values",
        instance: "r422",
        errors: [
          { detail: "Too big: expected number to be <=10", code: "too_big", in: "query", parameter: "limit" },
          {
            detail: "Too small: expected string to have >=1 characters",
            code: "too_small",
            pointer: "#/name",
          },
          {
            detail: "Invalid input: expected string, received number",
            code: "invalid_type",
            pointer: "#/tags/1",
          },
        ],
      },
    });
  });

  it("429 as the draft's quota-exceeded type", async () => {
    await server.fetch("/limited");
    const answer = await server.fetch("/limited", { headers: id("r429") });
    expect(answer.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await problemOf(answer)).toEqual({
      status: 429,
      body: {
        type: "https://iana.org/assignments/http-problem-types#quota-exceeded",
        title: "Request cannot be satisfied as assigned quota has been exceeded",
        status: 429,
        detail: expect.stringMatching(
          /^Too Many Requests: the quota of policy "tiny" is exhausted; retry in \d+ s$/,
        ),
        instance: "r429",
        "violated-policies": ["tiny"],
      },
    });
  });

  it("500 for an error nothing handles, without its message", async () => {
    expect(await problemOf(await server.fetch("/fail?kind=crash", { headers: id("r500") }))).toEqual({
      status: 500,
      body: { type: "about:blank", title: "Internal Server Error", status: 500, instance: "r500" },
    });
  });

  it("503 when the rate-limit store fails and limits fail closed", async () => {
    const closed = await serve(routes, {
      settings: { ERRORS: { format: "problem" }, RATE_LIMITS: { on_store_failure: "closed" } },
      rateLimitStore: brokenStore,
      logger,
    });
    expect(await problemOf(await closed.fetch("/limited", { headers: id("r503") }))).toEqual({
      status: 503,
      body: {
        type: "about:blank",
        title: "Service Unavailable",
        status: 503,
        detail: "Service Unavailable: the rate-limit store cannot be reached",
        instance: "r503",
      },
    });
  });

  it("the request id the app made, when the client sent none, is the instance and the x-request-id", async () => {
    const answer = await server.fetch("/nowhere");
    const made = answer.headers.get("x-request-id");
    expect(made).toMatch(/^[\w-]+$/);
    expect(await problemOf(answer)).toEqual({
      status: 404,
      body: {
        type: "about:blank",
        title: "Not Found",
        status: 404,
        detail: "Not Found: /nowhere",
        instance: made,
      },
    });
  });

  it("an app's own problem type, with its extension members", async () => {
    expect(await problemOf(await server.fetch("/fail?kind=stock", { headers: id("r409") }))).toEqual({
      status: 409,
      body: {
        type: "https://example.org/problems/out-of-stock",
        title: "Out of stock",
        status: 409,
        detail: '"tea" is out of stock',
        sku: "tea",
        instance: "r409",
      },
    });
  });
});

describe("the document follows the format", () => {
  it("documents the 422 as ValidationProblem and the framework's other errors as ProblemDetails, as problem+json", () => {
    const app = createApp({
      routes: [path("/items", { endpoint: create, methods: ["POST"] }), path("/admin", { endpoint: admin })],
      settings: { ERRORS: { format: "problem" } },
    });
    const document = app.openapi();
    const problem = (schema: string) => ({
      "application/problem+json": { schema: { $ref: `#/components/schemas/${schema}` } },
    });
    const contentOf = (responses: object) =>
      Object.fromEntries(
        Object.entries(responses as Record<string, { content?: unknown }>).map(([status, response]) => [
          status,
          response.content,
        ]),
      );
    const json = { "application/json": { schema: {} } };
    expect(contentOf(document.paths["/items"]!.post!.responses)).toEqual({
      "200": json,
      "413": problem("ProblemDetails"),
      "415": problem("ProblemDetails"),
      "422": problem("ValidationProblem"),
    });
    expect(contentOf(document.paths["/admin"]!.get!.responses)).toEqual({
      "200": json,
      "401": problem("ProblemDetails"),
      "403": problem("ProblemDetails"),
    });
  });
});

describe("without ERRORS, the detail format is unchanged", () => {
  it("answers 404 with {detail} as JSON", async () => {
    const server = await serve(routes, { logger });
    const answer = await server.fetch("/nowhere");
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(await answer.json()).toEqual({ detail: "Not Found: /nowhere" });
  });

  it("still answers an HttpProblem as problem details", async () => {
    const server = await serve(routes, { logger });
    const answer = await server.fetch("/fail?kind=stock", { headers: { "x-request-id": "d409" } });
    expect(await problemOf(answer)).toEqual({
      status: 409,
      body: {
        type: "https://example.org/problems/out-of-stock",
        title: "Out of stock",
        status: 409,
        detail: '"tea" is out of stock',
        sku: "tea",
        instance: "d409",
      },
    });
  });

  it("lets an app's handler for HttpError take the framework's errors", async () => {
    const server = await serve(routes, {
      logger,
      settings: { ERRORS: { format: "problem" } },
      exceptionHandlers: [exceptionHandler(HttpError, (error) => new JsonResponse({ code: error.status }))],
    });
    expect(await (await server.fetch("/nowhere")).json()).toEqual({ code: 404 });
  });
});

describe("ERRORS is checked when the app is built", () => {
  it("refuses an unknown format", async () => {
    await expect(serve(routes, { settings: { ERRORS: { format: "xml" as "problem" } } })).rejects.toThrow(
      'The ERRORS setting "format" must be "detail" or "problem", got "xml"',
    );
  });

  it("keeps HttpProblem's members", () => {
    const problem = new HttpProblem({ status: 410, detail: "Gone for good" });
    expect(problem.problem).toEqual({
      type: "about:blank",
      title: "Gone",
      status: 410,
      detail: "Gone for good",
    });
  });
});

describe("audit: docs/errors.md, problem details keep what the error carries", async () => {
  const signIn = endpoint({
    returns: JsonResponse,
    handler: () => {
      throw new HttpError(401, "Sign in first", { "www-authenticate": "Bearer", "retry-after": "5" });
    },
  });
  const server = await serve([...routes, path("/sign-in", { endpoint: signIn })], {
    settings: { ERRORS: { format: "problem" } },
    logger,
  });

  it("an HttpError's own headers go out with its problem details", async () => {
    const answer = await server.fetch("/sign-in", { headers: { "x-request-id": "h401" } });
    expect([answer.headers.get("www-authenticate"), answer.headers.get("retry-after")]).toEqual([
      "Bearer",
      "5",
    ]);
    expect(await problemOf(answer)).toEqual({
      status: 401,
      body: {
        type: "about:blank",
        title: "Unauthorized",
        status: 401,
        detail: "Sign in first",
        instance: "h401",
      },
    });
  });

  it("a refused token's 401 keeps its invalid_token challenge", async () => {
    const answer = await server.fetch("/admin", {
      headers: { authorization: "Bearer forged", "x-request-id": "t401" },
    });
    expect(answer.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    expect(await problemOf(answer)).toEqual({
      status: 401,
      body: {
        type: "about:blank",
        title: "Unauthorized",
        status: 401,
        detail: "Invalid bearer token",
        instance: "t401",
      },
    });
  });

  it("the plain 500 of an exception handler that throws is problem details too", async () => {
    class Boom extends Error {}
    const failing = endpoint({
      returns: JsonResponse,
      handler: () => {
        throw new Boom("boom");
      },
    });
    const broken = await serve([path("/boom", { endpoint: failing })], {
      settings: { ERRORS: { format: "problem" } },
      logger,
      exceptionHandlers: [
        exceptionHandler(Boom, () => {
          throw new Error("the handler broke");
        }),
      ],
    });
    const answer = await broken.fetch("/boom", { headers: { "x-request-id": "h500" } });
    expect(await problemOf(answer)).toEqual({
      status: 500,
      body: { type: "about:blank", title: "Internal Server Error", status: 500, instance: "h500" },
    });
  });

  it("an app's own handler for a framework error still wins over the problem default", async () => {
    const own = await serve(routes, {
      settings: { ERRORS: { format: "problem" } },
      logger,
      exceptionHandlers: [
        exceptionHandler(
          RequestValidationError,
          (error) => new JsonResponse({ invalid: error.issues.length }, { status: 400 }),
        ),
      ],
    });
    const answer = await own.fetch("/items", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "", tags: [] }),
    });
    expect([answer.status, answer.headers.get("content-type"), await answer.json()]).toEqual([
      400,
      "application/json",
      { invalid: 1 },
    ]);
  });
});
