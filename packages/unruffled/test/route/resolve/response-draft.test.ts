// p.Response(): a dependency shapes the answer (FastAPI's injected Response; its
// test_response_change_status_code.py and the cookie and header tutorials), over a socket.
import { exceptionHandler, HttpError } from "unruffled";
import { JsonResponse, type ResponseDraft } from "unruffled/http";
import { dependency, endpoint, p, path } from "unruffled/route";
import { httpBearer } from "unruffled/security";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { serve } from "../../support/serve.ts";

const rateLimit = dependency({
  name: "rate_limit",
  params: { response: p.Response() },
  resolve: (_request, { response }) => {
    response.setHeader("RateLimit-Limit", "100").setHeader("RateLimit-Remaining", "99");
  },
});

// A session whose cookie is refreshed on every answer, a generator like a real one.
const session = dependency({
  name: "session",
  params: { response: p.Response(), sid: p.Cookie(z.string(), { default: "new" }) },
  async *resolve(_request, { response, sid }) {
    response.setCookie("sid", sid === "new" ? "s-1" : sid, { httpOnly: true, maxAge: 3600 });
    yield { sid };
  },
});

describe("p.Response(): what dependencies add to the answer", () => {
  it("adds their headers and cookies to the handler's response; the handler's own header wins", async () => {
    const items = endpoint({
      params: { limit: p.Depends(rateLimit), session: p.Depends(session) },
      returns: JsonResponse,
      handler: () =>
        new JsonResponse({ ok: true }, { headers: { "ratelimit-remaining": "7" } }).setCookie(
          "theme",
          "dark",
        ),
    });
    const server = await serve([path("/items", { endpoint: items })]);
    const response = await server.fetch("/items");
    expect(response.status).toBe(200);
    expect(response.headers.get("ratelimit-limit")).toBe("100");
    expect(response.headers.get("ratelimit-remaining")).toBe("7");
    expect(response.headers.getSetCookie()).toEqual(["sid=s-1; Max-Age=3600; HttpOnly", "theme=dark"]);
    expect(await response.json()).toEqual({ ok: true });
  });

  it("sets the status of an answer built without one; a status the handler gave wins", async () => {
    const created = dependency({
      params: { response: p.Response() },
      resolve: (_request, { response }: { response: ResponseDraft }) => {
        response.status = 201;
      },
    });
    const byDependency = endpoint({
      params: { _: p.Depends(created) },
      returns: JsonResponse,
      handler: () => new JsonResponse({ id: 1 }),
    });
    const byHandler = endpoint({
      params: { _: p.Depends(created) },
      returns: JsonResponse,
      handler: () => new JsonResponse({ id: 1 }, { status: 200 }),
    });
    const server = await serve([path("/a", { endpoint: byDependency }), path("/b", { endpoint: byHandler })]);
    expect((await server.fetch("/a")).status).toBe(201);
    expect((await server.fetch("/b")).status).toBe(200);
  });

  it("sets its status over the endpoint's one declared success status; the body still goes through the success model", async () => {
    const accepted = dependency({
      params: { response: p.Response() },
      resolve: (_request, { response }: { response: ResponseDraft }) => {
        response.status = 202;
      },
    });
    const create = endpoint({
      params: { _: p.Depends(accepted) },
      returns: [p.ResponseSpec({ code: "201", model: z.object({ id: z.int() }) })],
      handler: () => new JsonResponse({ id: 1, secret: "kept out" }),
    });
    const server = await serve([path("/items", { endpoint: create, methods: ["POST"] })]);
    const response = await server.fetch("/items", { method: "POST" });
    expect([response.status, await response.json()]).toEqual([202, { id: 1 }]);
  });

  it("leaves error answers alone, as FastAPI does", async () => {
    const failing = endpoint({
      params: { limit: p.Depends(rateLimit) },
      returns: JsonResponse,
      handler: () => {
        throw new HttpError(409, "taken");
      },
    });
    const server = await serve([path("/fail", { endpoint: failing })]);
    const response = await server.fetch("/fail");
    expect([response.status, response.headers.get("ratelimit-limit"), await response.text()]).toEqual([
      409,
      null,
      '{"detail":"taken"}',
    ]);
  });

  it("a header Node would refuse is refused where the dependency sets it: a 500, the server lives on", async () => {
    const bad = dependency({
      params: { response: p.Response() },
      resolve: (_request, { response }) => {
        response.setHeader("x-reflected", "a\r\nb");
      },
    });
    const probe = endpoint({
      params: { _: p.Depends(bad) },
      returns: JsonResponse,
      handler: () => new JsonResponse(null),
    });
    const server = await serve([path("/probe", { endpoint: probe })], { logger: { error: () => {} } });
    const response = await server.fetch("/probe");
    expect([response.status, await response.text()]).toEqual([500, '{"detail":"Internal Server Error"}']);
    expect((await server.fetch("/probe")).status).toBe(500);
  });
});

describe("audit: p.Response() in dependencies that run for every route", () => {
  it("adds the headers and cookies of the app's and a group's dependencies to the handler's answer", async () => {
    const hello = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({ ok: true }) });
    const server = await serve(
      [path("/api", { dependencies: [session], routes: [path("/hello", { endpoint: hello })] })],
      { dependencies: [rateLimit] },
    );
    const response = await server.fetch("/api/hello");
    expect([
      response.status,
      response.headers.get("ratelimit-limit"),
      response.headers.getSetCookie(),
      await response.json(),
    ]).toEqual([200, "100", ["sid=s-1; Max-Age=3600; HttpOnly"], { ok: true }]);
  });
});

describe("audit: error answers do not get what the draft holds (docs/dependencies.md)", () => {
  const created = dependency({
    name: "created",
    params: { response: p.Response() },
    resolve: (_request, { response }: { response: ResponseDraft }) => {
      response.status = 201;
      response.setHeader("x-from-draft", "yes").setCookie("sid", "s-1");
    },
  });

  class Taken extends Error {}

  it("an exception handler's answer, a 401 and a 422 go out without the draft's status, headers and cookies", async () => {
    const bearer = httpBearer({ verify: (token) => (token === "ok" ? { name: "ann" } : null) });
    const taken = endpoint({
      params: { _: p.Depends(created) },
      returns: JsonResponse,
      handler: () => {
        throw new Taken("taken");
      },
    });
    const secured = endpoint({
      params: { _: p.Depends(created), user: p.Security(bearer) },
      returns: JsonResponse,
      handler: () => new JsonResponse({ ok: true }),
    });
    const paged = endpoint({
      params: { _: p.Depends(created), page: p.Query(z.int()) },
      returns: JsonResponse,
      handler: () => new JsonResponse({ ok: true }),
    });
    const server = await serve(
      [
        path("/taken", { endpoint: taken }),
        path("/secured", { endpoint: secured }),
        path("/paged", { endpoint: paged }),
      ],
      {
        exceptionHandlers: [
          exceptionHandler(Taken, (error) => new JsonResponse({ detail: error.message }, { status: 409 })),
        ],
      },
    );
    for (const [at, status] of [
      ["/taken", 409],
      ["/secured", 401],
      ["/paged?page=x", 422],
    ] as const) {
      const response = await server.fetch(at);
      expect([
        at,
        response.status,
        response.headers.get("x-from-draft"),
        response.headers.getSetCookie(),
      ]).toEqual([at, status, null, []]);
    }
    const fine = await server.fetch("/paged?page=1");
    expect([fine.status, fine.headers.get("x-from-draft"), fine.headers.getSetCookie()]).toEqual([
      201,
      "yes",
      ["sid=s-1"],
    ]);
  });

  it('the error a scope "function" clean-up throws after the handler answered goes out without the draft', async () => {
    const transaction = dependency({
      scope: "function",
      *resolve() {
        yield "tx";
        throw new HttpError(409, "conflict at commit");
      },
    });
    const commit = endpoint({
      params: { _: p.Depends(created), tx: p.Depends(transaction) },
      returns: JsonResponse,
      handler: () => new JsonResponse({ ok: true }),
    });
    const server = await serve([path("/commit", { endpoint: commit })]);
    const response = await server.fetch("/commit");
    expect([
      response.status,
      response.headers.get("x-from-draft"),
      response.headers.getSetCookie(),
      await response.text(),
    ]).toEqual([409, null, [], '{"detail":"conflict at commit"}']);
  });

  it("a 500 for a body the model refuses goes out without the draft's headers and cookies", async () => {
    const broken = endpoint({
      params: { _: p.Depends(created) },
      returns: [p.ResponseSpec({ model: z.object({ id: z.int() }), code: "201" })],
      handler: () => JsonResponse.unchecked({ id: "seven" }),
    });
    const server = await serve([path("/broken", { endpoint: broken })], { logger: { error: () => {} } });
    const response = await server.fetch("/broken");
    expect([
      response.status,
      response.headers.get("x-from-draft"),
      response.headers.getSetCookie(),
      await response.text(),
    ]).toEqual([500, null, [], '{"detail":"Internal Server Error"}']);
  });
});
