import {
  type AppOptions,
  type CorsOptions,
  cors,
  createApp,
  exceptionHandler,
  HttpError,
  ValueError,
} from "unruffled";
import { JsonResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, p, path, type RouteDefinition } from "unruffled/route";
import { testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { corsHeadersOf, wireRequest } from "../support/http-request.ts";
import { serve } from "../support/serve.ts";

const APP = "https://app.example.com";
const calls: string[] = [];

const listItems = endpoint({
  params: { page: p.Query(z.int(), { default: 1, ge: 1 }) },
  returns: JsonResponse,
  handler: (_request, { page }) => {
    calls.push("list");
    return new JsonResponse({ page }, { headers: { "x-total": "3" } });
  },
});
const createItem = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({ created: true }) });
const getItem = endpoint({
  params: { id: p.Path(z.int()) },
  returns: JsonResponse,
  handler: (_request, { id }) => new JsonResponse({ id }),
});
const answerOptions = endpoint({
  returns: PlainTextResponse,
  handler: () => new PlainTextResponse("the endpoint's own OPTIONS"),
});

const routes: RouteDefinition[] = [
  path("/items", { endpoint: listItems }),
  path("/items", { endpoint: createItem, methods: ["POST"], name: "create_item" }),
  path("/items/{id}", { endpoint: getItem }),
  path("/described", { endpoint: answerOptions, methods: ["GET", "OPTIONS"] }),
];

async function serveWithCors(options: CorsOptions, appOptions: Omit<AppOptions, "routes"> = {}) {
  return serve(routes, { ...appOptions, middleware: [cors(options)] });
}

function preflight(method: string, origin = APP, headers: Record<string, string> = {}) {
  return { origin, "access-control-request-method": method, ...headers };
}

describe("cors()", () => {
  it("gives an allowed origin Access-Control-Allow-Origin with that origin, and Vary: Origin", async () => {
    const server = await serveWithCors({ origins: [APP, "https://admin.example.com"] });
    const answer = await wireRequest(server.url, "GET", "/items", { origin: APP });
    expect([answer.status, corsHeadersOf(answer.headers), answer.body.toString()]).toEqual([
      200,
      { "access-control-allow-origin": APP, vary: "Origin" },
      '{"page":1}',
    ]);
  });

  it("gives a refused origin the answer without any CORS header, with Vary: Origin", async () => {
    const server = await serveWithCors({ origins: [APP] });
    const answer = await wireRequest(server.url, "GET", "/items", { origin: "https://evil.example" });
    expect([answer.status, corsHeadersOf(answer.headers)]).toEqual([200, { vary: "Origin" }]);
  });

  it("adds Vary: Origin to a request without Origin, so a cache keeps the answers apart", async () => {
    const server = await serveWithCors({ origins: [APP] });
    const answer = await wireRequest(server.url, "GET", "/items");
    expect(corsHeadersOf(answer.headers)).toEqual({ vary: "Origin" });
  });

  it('answers every request with Access-Control-Allow-Origin: * for origins "*", without Vary', async () => {
    const server = await serveWithCors({ origins: "*" });
    const withOrigin = await wireRequest(server.url, "GET", "/items", { origin: "https://anyone.example" });
    const without = await wireRequest(server.url, "GET", "/items");
    expect([corsHeadersOf(withOrigin.headers), corsHeadersOf(without.headers)]).toEqual([
      { "access-control-allow-origin": "*" },
      { "access-control-allow-origin": "*" },
    ]);
  });

  it("allows credentials with Access-Control-Allow-Credentials and the exposed headers", async () => {
    const server = await serveWithCors({
      origins: [APP],
      credentials: true,
      exposeHeaders: ["X-Total", "x-request-id"],
    });
    const answer = await wireRequest(server.url, "GET", "/items", { origin: APP });
    expect(corsHeadersOf(answer.headers)).toEqual({
      "access-control-allow-origin": APP,
      "access-control-allow-credentials": "true",
      "access-control-expose-headers": "x-total, x-request-id",
      vary: "Origin",
    });
  });

  it("decides every answer: a response object shared across requests keeps no allowed origin's headers for a refused one", async () => {
    // One object for every request, as a handler returning a constant answer would have it.
    const shared = new JsonResponse({ status: "up" });
    const health = endpoint({ returns: JsonResponse, handler: () => shared });
    const server = await serve([path("/health", { endpoint: health })], {
      middleware: [cors({ origins: [APP], credentials: true, exposeHeaders: ["x-request-id"] })],
    });
    // Every header but the date and the request id, which are not CORS's to decide.
    const headersOf = async (origin?: string) => {
      const sent: Record<string, string> = origin === undefined ? {} : { origin };
      const answer = await wireRequest(server.url, "GET", "/health", sent);
      const { date: _date, "x-request-id": _id, ...headers } = answer.headers;
      return headers;
    };
    const common = { connection: "close", "content-length": "15", "content-type": "application/json" };
    expect(await headersOf(APP)).toEqual({
      ...common,
      "access-control-allow-origin": APP,
      "access-control-allow-credentials": "true",
      "access-control-expose-headers": "x-request-id",
      vary: "Origin",
    });
    expect(await headersOf("https://evil.example")).toEqual({ ...common, vary: "Origin" });
    expect(await headersOf()).toEqual({ ...common, vary: "Origin" });
  });

  it("adds the CORS headers to error answers too", async () => {
    const server = await serveWithCors({ origins: [APP] });
    const answer = await wireRequest(server.url, "GET", "/items?page=0", { origin: APP });
    expect([answer.status, corsHeadersOf(answer.headers)]).toEqual([
      422,
      { "access-control-allow-origin": APP, vary: "Origin" },
    ]);
  });

  it("answers a preflight 204 with the path's methods, without reaching the endpoint", async () => {
    calls.length = 0;
    const server = await serveWithCors({ origins: [APP] });
    const answer = await wireRequest(
      server.url,
      "OPTIONS",
      "/items",
      preflight("POST", APP, { "access-control-request-headers": "Content-Type, X-Token" }),
    );
    expect([answer.status, corsHeadersOf(answer.headers), answer.body.length, calls]).toEqual([
      204,
      {
        "access-control-allow-origin": APP,
        "access-control-allow-methods": "GET, POST, HEAD",
        "access-control-allow-headers": "content-type, x-token",
        "access-control-max-age": "600",
        vary: "Origin, Access-Control-Request-Headers",
      },
      0,
      [],
    ]);
  });

  it("answers a preflight on a path with placeholders, with credentials and the max age asked", async () => {
    const server = await serveWithCors({ origins: [APP], credentials: true, maxAge: 3600 });
    const answer = await wireRequest(server.url, "OPTIONS", "/items/42", preflight("GET"));
    expect([answer.status, corsHeadersOf(answer.headers)]).toEqual([
      204,
      {
        "access-control-allow-origin": APP,
        "access-control-allow-methods": "GET, HEAD",
        "access-control-max-age": "3600",
        "access-control-allow-credentials": "true",
        vary: "Origin, Access-Control-Request-Headers",
      },
    ]);
  });

  it("answers the preflight of a route that has its own OPTIONS, and passes it a plain OPTIONS", async () => {
    const server = await serveWithCors({ origins: [APP] });
    const checked = await wireRequest(server.url, "OPTIONS", "/described", preflight("GET"));
    expect([checked.status, checked.headers["access-control-allow-methods"]]).toEqual([
      204,
      "GET, OPTIONS, HEAD",
    ]);
    const plain = await wireRequest(server.url, "OPTIONS", "/described", { origin: APP });
    expect([plain.status, plain.body.toString(), corsHeadersOf(plain.headers)]).toEqual([
      200,
      "the endpoint's own OPTIONS",
      { "access-control-allow-origin": APP, vary: "Origin" },
    ]);
  });

  it("refuses the preflight of a refused origin with 400 and no CORS header", async () => {
    const server = await serveWithCors({ origins: [APP] });
    const answer = await wireRequest(
      server.url,
      "OPTIONS",
      "/items",
      preflight("GET", "https://evil.example"),
    );
    expect([answer.status, corsHeadersOf(answer.headers), JSON.parse(answer.body.toString())]).toEqual([
      400,
      { vary: "Origin" },
      { detail: "CORS preflight refused: the origin is not allowed." },
    ]);
  });

  it("refuses a preflight in the app's error format: problem details with ERRORS.format problem", async () => {
    const server = await serveWithCors({ origins: [APP] }, { settings: { ERRORS: { format: "problem" } } });
    const answer = await wireRequest(
      server.url,
      "OPTIONS",
      "/items",
      preflight("GET", "https://evil.example"),
    );
    const problem = JSON.parse(answer.body.toString());
    expect([answer.status, answer.headers["content-type"], corsHeadersOf(answer.headers), problem]).toEqual([
      400,
      "application/problem+json",
      { vary: "Origin" },
      {
        type: "about:blank",
        title: "Bad Request",
        status: 400,
        detail: "CORS preflight refused: the origin is not allowed.",
        instance: problem.instance,
      },
    ]);
  });

  it("refuses the preflight of a method the path does not answer", async () => {
    const server = await serveWithCors({ origins: [APP] });
    const answer = await wireRequest(server.url, "OPTIONS", "/items/1", preflight("DELETE"));
    expect([answer.status, JSON.parse(answer.body.toString())]).toEqual([
      400,
      { detail: "CORS preflight refused: the method is not allowed here; allowed: GET, HEAD." },
    ]);
  });

  it("allows only the listed request headers, and the safelisted ones, when allowHeaders is given", async () => {
    const server = await serveWithCors({ origins: [APP], allowHeaders: ["X-Token"] });
    const allowed = await wireRequest(
      server.url,
      "OPTIONS",
      "/items",
      preflight("POST", APP, { "access-control-request-headers": "content-type,x-token" }),
    );
    expect([allowed.status, corsHeadersOf(allowed.headers)]).toEqual([
      204,
      {
        "access-control-allow-origin": APP,
        "access-control-allow-methods": "GET, POST, HEAD",
        "access-control-allow-headers": "accept, accept-language, content-language, content-type, x-token",
        "access-control-max-age": "600",
        vary: "Origin",
      },
    ]);
    const refused = await wireRequest(
      server.url,
      "OPTIONS",
      "/items",
      preflight("POST", APP, { "access-control-request-headers": "x-token, x-other" }),
    );
    expect([refused.status, JSON.parse(refused.body.toString())]).toEqual([
      400,
      {
        detail:
          "CORS preflight refused: a requested header is not allowed; allowed: accept, accept-language, content-language, content-type, x-token.",
      },
    ]);
  });

  it("passes a preflight for a path no route serves on to the 404, with the origin's CORS headers", async () => {
    const server = await serveWithCors({ origins: [APP] });
    const answer = await wireRequest(server.url, "OPTIONS", "/nowhere", preflight("GET"));
    expect([answer.status, corsHeadersOf(answer.headers), JSON.parse(answer.body.toString())]).toEqual([
      404,
      { "access-control-allow-origin": APP, vary: "Origin" },
      { detail: "Not Found: /nowhere" },
    ]);
  });

  it("decides by a function, called only with well-formed origins, possibly async", async () => {
    const asked: string[] = [];
    const server = await serveWithCors({
      origins: async (origin) => {
        asked.push(origin);
        return origin.endsWith(".example.com");
      },
    });
    const allowed = await wireRequest(server.url, "GET", "/items", { origin: "https://shop.example.com" });
    const refused = await wireRequest(server.url, "GET", "/items", { origin: "https://example.org" });
    const malformed = await wireRequest(server.url, "GET", "/items", {
      origin: "https://shop.example.com/x",
    });
    expect([
      allowed.headers["access-control-allow-origin"],
      refused.headers["access-control-allow-origin"],
      malformed.headers["access-control-allow-origin"],
      asked,
    ]).toEqual([
      "https://shop.example.com",
      undefined,
      undefined,
      ["https://shop.example.com", "https://example.org"],
    ]);
  });

  it("matches listed patterns against well-formed origins only", async () => {
    const server = await serveWithCors({ origins: [/^https:\/\/[a-z]+\.example\.com$/] });
    const allowed = await wireRequest(server.url, "GET", "/items", { origin: "https://shop.example.com" });
    const refused = await wireRequest(server.url, "GET", "/items", {
      origin: "https://shop.example.com.evil",
    });
    expect([
      allowed.headers["access-control-allow-origin"],
      refused.headers["access-control-allow-origin"],
    ]).toEqual(["https://shop.example.com", undefined]);
  });

  it('allows the origin "null" (a sandboxed page, a file) only when listed', async () => {
    const listed = await serveWithCors({ origins: ["null"] });
    const unlisted = await serveWithCors({ origins: [APP] });
    const fromListed = await wireRequest(listed.url, "GET", "/items", { origin: "null" });
    const fromUnlisted = await wireRequest(unlisted.url, "GET", "/items", { origin: "null" });
    expect([
      fromListed.headers["access-control-allow-origin"],
      fromUnlisted.headers["access-control-allow-origin"],
    ]).toEqual(["null", undefined]);
  });

  it("applies to the routes of its group only; other paths answer OPTIONS with 405 as before", async () => {
    const server = await serve([
      path("/public", {
        middleware: [cors({ origins: "*" })],
        routes: [path("/items", { endpoint: listItems })],
      }),
      path("/private", { endpoint: listItems }),
    ]);
    const inside = await wireRequest(server.url, "OPTIONS", "/public/items", preflight("GET"));
    const outside = await wireRequest(server.url, "OPTIONS", "/private", preflight("GET"));
    expect([inside.status, outside.status, corsHeadersOf(outside.headers)]).toEqual([204, 405, {}]);
  });

  it("refuses options that cannot work when the app is built, saying what to write", () => {
    expect(() => cors({ origins: "*", credentials: true })).toThrow(
      new ValueError(
        'cors(): origins "*" cannot go with credentials (browsers refuse it); list the origins, or pass a function.',
      ),
    );
    expect(() => cors({ origins: ["https://app.example.com/"] })).toThrow(
      new ValueError(
        'cors(): "https://app.example.com/" is not an origin: write scheme://host[:port], without a path; did you mean "https://app.example.com"?',
      ),
    );
    expect(() => cors({ origins: ["https://app.example.com:443"] })).toThrow(
      new ValueError(
        'cors(): "https://app.example.com:443" never matches: browsers send an origin without its scheme\'s default port; write "https://app.example.com"',
      ),
    );
    expect(() => cors({ origins: ["http://localhost:80"] })).toThrow(
      new ValueError(
        'cors(): "http://localhost:80" never matches: browsers send an origin without its scheme\'s default port; write "http://localhost"',
      ),
    );
    // Another port is the origin's own, and so is the default port of the other scheme.
    expect(() =>
      cors({ origins: ["https://app.example.com:8443", "http://app.example.com:443"] }),
    ).not.toThrow();
    expect(() => cors({ origins: ["*"] })).toThrow(
      new ValueError('cors(): give origins: "*" for any origin, not a list holding "*".'),
    );
    expect(() => cors({ origins: [APP], maxAge: -1 })).toThrow(
      new ValueError("cors(): maxAge must be a whole number of seconds, got -1."),
    );
    expect(() => cors({ origins: [APP], exposeHeaders: ["x total"] })).toThrow(
      new ValueError('cors(): exposeHeaders must be a list of header names such as ["x-request-id"].'),
    );
    expect(() => cors({} as CorsOptions)).toThrow(
      new ValueError(
        'cors() needs its origins: cors({ origins: ["https://app.example.com"] }), or "*" for any.',
      ),
    );
  });
});

describe("audit: cors() limits from docs/middleware-and-lifecycle.md", () => {
  it("compares an origin of at most 512 characters; a longer one is refused without reaching the function", async () => {
    const asked: number[] = [];
    const server = await serveWithCors({
      origins: (origin) => {
        asked.push(origin.length);
        return true;
      },
    });
    const at512 = `https://${"a".repeat(500)}.com`;
    const at513 = `https://${"a".repeat(501)}.com`;
    expect([at512.length, at513.length]).toEqual([512, 513]);
    const allowed = await wireRequest(server.url, "GET", "/items", { origin: at512 });
    const refused = await wireRequest(server.url, "GET", "/items", { origin: at513 });
    expect([corsHeadersOf(allowed.headers), corsHeadersOf(refused.headers), asked]).toEqual([
      { "access-control-allow-origin": at512, vary: "Origin" },
      { vary: "Origin" },
      [512],
    ]);
  });

  it("refuses with 400 a preflight whose Access-Control-Request-Headers is longer than 4 KiB or not a list of names", async () => {
    const server = await serveWithCors({ origins: [APP] });
    const names = (length: number) => `x-${"a".repeat(length - 2)}`;
    const at4096 = await wireRequest(
      server.url,
      "OPTIONS",
      "/items",
      preflight("POST", APP, { "access-control-request-headers": names(4096) }),
    );
    const expected = {
      detail: "CORS preflight refused: Access-Control-Request-Headers is not a short list of header names.",
    };
    const answers = [];
    for (const requested of [names(4097), "x-token, x token", "x-token;q=1"]) {
      const answer = await wireRequest(
        server.url,
        "OPTIONS",
        "/items",
        preflight("POST", APP, { "access-control-request-headers": requested }),
      );
      answers.push([answer.status, corsHeadersOf(answer.headers), JSON.parse(answer.body.toString())]);
    }
    expect([at4096.status, at4096.headers["access-control-allow-headers"]]).toEqual([204, names(4096)]);
    expect(answers).toEqual([
      [400, { vary: "Origin" }, expected],
      [400, { vary: "Origin" }, expected],
      [400, { vary: "Origin" }, expected],
    ]);
  });

  it("adds nothing for an empty list of origins: no CORS header and no Vary, the preflight a 400", async () => {
    const server = await serveWithCors({ origins: [] });
    const simple = await wireRequest(server.url, "GET", "/items", { origin: APP });
    const asked = await wireRequest(server.url, "OPTIONS", "/items", preflight("POST"));
    expect([
      simple.status,
      corsHeadersOf(simple.headers),
      asked.status,
      corsHeadersOf(asked.headers),
      JSON.parse(asked.body.toString()),
    ]).toEqual([200, {}, 400, {}, { detail: "CORS preflight refused: the origin is not allowed." }]);
  });
});

describe("audit: the answer's CORS headers are cors()'s", () => {
  it("replaces a handler's own grant for an allowed origin: no credentials or exposed headers cors() was not given", async () => {
    const granting = endpoint({
      returns: JsonResponse,
      handler: () =>
        new JsonResponse(
          { ok: true },
          {
            headers: {
              "access-control-allow-origin": "https://other.example",
              "access-control-allow-credentials": "true",
              "access-control-expose-headers": "x-secret",
            },
          },
        ),
    });
    const listed = await serve([path("/grant", { endpoint: granting })], {
      middleware: [cors({ origins: [APP] })],
    });
    const anyone = await serve([path("/grant", { endpoint: granting })], {
      middleware: [cors({ origins: "*" })],
    });
    const fromListed = await wireRequest(listed.url, "GET", "/grant", { origin: APP });
    const fromAnyone = await wireRequest(anyone.url, "GET", "/grant", { origin: APP });
    expect([corsHeadersOf(fromListed.headers), corsHeadersOf(fromAnyone.headers)]).toEqual([
      { "access-control-allow-origin": APP, vary: "Origin" },
      { "access-control-allow-origin": "*" },
    ]);
  });
});

describe("audit: a refused preflight in the app's own error format", () => {
  it("is what the app's exception handler for HttpError writes", async () => {
    const server = await serveWithCors(
      { origins: [APP] },
      {
        exceptionHandlers: [
          exceptionHandler(
            HttpError,
            (error) =>
              new JsonResponse(
                { error: { status: error.status, message: error.message } },
                { status: error.status },
              ),
          ),
        ],
      },
    );
    const answer = await wireRequest(
      server.url,
      "OPTIONS",
      "/items",
      preflight("POST", "https://evil.example"),
    );
    expect([answer.status, corsHeadersOf(answer.headers), JSON.parse(answer.body.toString())]).toEqual([
      400,
      {},
      { error: { status: 400, message: "CORS preflight refused: the origin is not allowed." } },
    ]);
  });
});

describe("audit-b: cors() and what passes through it", () => {
  it("answers a plain OPTIONS on a path without its own OPTIONS route with the usual 405, with the CORS headers", async () => {
    const server = await serveWithCors({ origins: [APP] });
    const plain = await wireRequest(server.url, "OPTIONS", "/items", { origin: APP });
    expect([plain.status, plain.headers.allow, corsHeadersOf(plain.headers)]).toEqual([
      405,
      "GET, POST, HEAD",
      { "access-control-allow-origin": APP, vary: "Origin" },
    ]);
  });

  it("leaves the work after the answer alone: tasks queued by the handler run once the answer is out", async () => {
    const ran: string[] = [];
    const app = createApp({
      middleware: [cors({ origins: [APP] })],
      routes: [
        path("/items", {
          endpoint: endpoint({
            returns: JsonResponse,
            handler(request) {
              request.afterResponse(() => void ran.push("after"));
              return new JsonResponse({ ok: true });
            },
          }),
        }),
      ],
    });
    const response = await testClient(app).get("/items", { headers: { origin: APP } });
    expect([response.status, response.headers.get("access-control-allow-origin"), ran]).toEqual([
      200,
      APP,
      ["after"],
    ]);
  });
});
