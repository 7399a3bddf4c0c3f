import { exceptionHandler, PayloadTooLargeError } from "unruffled";
import { HttpRequest, JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { JSON_HEADERS, jsonOf, serve } from "../support/serve.ts";

describe("HttpRequest", () => {
  it("exposes method, url, path, query, headers, cookies, path params and the client address", async () => {
    const inspect = endpoint({
      returns: JsonResponse,
      handler: (request) =>
        new JsonResponse({
          method: request.method,
          url: request.url,
          path: request.path,
          query: { ...request.query },
          agent: request.headers["x-agent"],
          cookies: { ...request.cookies },
          pathParams: request.pathParams,
          client: request.client.host,
        }),
    });
    const server = await serve([path("/students/{id}", { endpoint: inspect })]);
    const response = server.fetch("/students/7?tag=a&tag=b&q=x", {
      headers: { "x-agent": "test", cookie: "s=1" },
    });
    expect(await jsonOf(response)).toEqual({
      status: 200,
      body: {
        method: "GET",
        url: "/students/7?tag=a&tag=b&q=x",
        path: "/students/7",
        query: { tag: ["a", "b"], q: "x" },
        agent: "test",
        cookies: { s: "1" },
        pathParams: { id: "7" },
        client: "127.0.0.1",
      },
    });
  });

  it("reads the body as JSON, text, bytes or a form, once", async () => {
    const read = endpoint({
      returns: JsonResponse,
      async handler(request) {
        const kind = request.query.kind;
        if (kind === "json")
          return new JsonResponse({ json: await request.json(), again: await request.text() });
        if (kind === "bytes") return new JsonResponse({ length: (await request.body()).length });
        return new JsonResponse({ form: { ...(await request.form()) } });
      },
    });
    const server = await serve([path("/read", { endpoint: read, methods: ["POST"] })]);
    expect(await jsonOf(server.fetch("/read?kind=json", { method: "POST", body: '{"a":1}' }))).toEqual({
      status: 200,
      body: { json: { a: 1 }, again: '{"a":1}' },
    });
    expect(await jsonOf(server.fetch("/read?kind=bytes", { method: "POST", body: "12345" }))).toEqual({
      status: 200,
      body: { length: 5 },
    });
    expect(
      await jsonOf(
        server.fetch("/read?kind=form", { method: "POST", body: new URLSearchParams("a=1&a=2&b=x") }),
      ),
    ).toEqual({
      status: 200,
      body: { form: { a: ["1", "2"], b: "x" } },
    });
  });

  it("hands endpoints the app's own request class", async () => {
    class TenantRequest extends HttpRequest {
      get tenant(): string {
        return String(this.headers["x-tenant"] ?? "public");
      }
    }
    const whoami = endpoint({
      returns: JsonResponse,
      handler: (request: TenantRequest) => new JsonResponse({ tenant: request.tenant }),
    });
    const server = await serve([path("/whoami", { endpoint: whoami })], { requestClass: TenantRequest });
    expect(await jsonOf(server.fetch("/whoami", { headers: { "x-tenant": "school-7" } }))).toEqual({
      status: 200,
      body: { tenant: "school-7" },
    });
  });
});

describe("a body read late", () => {
  it("is still there when the handler reads it after the request has fully arrived", async () => {
    const late = endpoint({
      returns: JsonResponse,
      async handler(request) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return new JsonResponse({ json: await request.json() });
      },
    });
    const server = await serve([path("/late", { endpoint: late, methods: ["POST"] })]);
    expect(await jsonOf(server.fetch("/late", { method: "POST", body: '{"a":1}' }))).toEqual({
      status: 200,
      body: { json: { a: 1 } },
    });
  });
});

describe("a body the framework read for the parameters", () => {
  const bodyParam = { body: p.Json(z.object({ n: z.int() })) };

  it("is the same bytes when the handler reads it again", async () => {
    const again = endpoint({
      params: bodyParam,
      returns: JsonResponse,
      handler: async (request, { body }) => new JsonResponse({ body, text: await request.text() }),
    });
    const server = await serve([path("/again", { endpoint: again, methods: ["POST"] })]);
    const response = server.fetch("/again", { method: "POST", headers: JSON_HEADERS, body: '{"n": 7}' });
    expect(await jsonOf(response)).toEqual({ status: 200, body: { body: { n: 7 }, text: '{"n": 7}' } });
  });

  it("gives the same error to an exception handler that reads it after it was refused", async () => {
    const refused = endpoint({
      params: bodyParam,
      returns: JsonResponse,
      handler: () => new JsonResponse({}),
    });
    const server = await serve([path("/refused", { endpoint: refused, methods: ["POST"] })], {
      settings: { LIMITS: { body_size: 8 } },
      exceptionHandlers: [
        exceptionHandler(PayloadTooLargeError, async (error, request) => {
          const again = await request.body().then(
            () => "read",
            (failure: Error) => failure.message,
          );
          return new JsonResponse({ first: error.message, again }, { status: 413 });
        }),
      ],
    });
    const response = server.fetch("/refused", {
      method: "POST",
      headers: JSON_HEADERS,
      body: '{"n": 12345}',
    });
    expect(await jsonOf(response)).toEqual({
      status: 413,
      body: {
        first: "Request body is larger than the limit of 8 bytes",
        again: "Request body is larger than the limit of 8 bytes",
      },
    });
  });
});
