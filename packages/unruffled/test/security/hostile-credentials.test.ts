// Credentials from a hostile or clumsy client, over a real socket: each gets a 401 (or Node's 431
// for a head too large), never a 500, and no credential reaches an answer or a log line.
import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { apiKeyQuery, httpBearer, jwtVerifier } from "unruffled/security";
import { type RunningServer, startServer } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRaw, statusOf } from "../support/raw-http.ts";

const SECRET = "a-secret-of-at-least-thirty-two-bytes!";
const bearer = httpBearer({
  bearerFormat: "JWT",
  verify: jwtVerifier({ secret: SECRET, algorithms: ["HS256"] }),
});
const queryKey = apiKeyQuery({
  query: "api_key",
  verify: (key) => (key === "right-key" ? { service: "x" } : null),
});

const lines: string[] = [];
let server: RunningServer;

beforeAll(async () => {
  const app = createApp({
    settings: { LOGGING: { level: "info", destination: { write: (line: string) => void lines.push(line) } } },
    routes: [
      path("/me", {
        endpoint: endpoint({
          params: { claims: p.Security(bearer) },
          returns: JsonResponse,
          handler: (_request, { claims }) => new JsonResponse({ sub: claims.sub ?? null }),
        }),
      }),
      path("/keyed-broken", {
        endpoint: endpoint({
          params: { service: p.Security(queryKey) },
          returns: JsonResponse,
          handler: () => {
            throw new Error("the store is down");
          },
        }),
      }),
      path("/keyed", {
        endpoint: endpoint({
          params: { service: p.Security(queryKey) },
          returns: JsonResponse,
          handler: () => new JsonResponse({ ok: true }),
        }),
      }),
    ],
  });
  server = await startServer(app);
});
afterAll(() => server.close());

const SECRETS = [
  "eyJhbGciOiJub25lIn0.eyJzdWIiOiJyb290In0.",
  "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbm4ifQ.Zm9yZ2Vk",
  "wrong-key-0123",
];

describe("a bearer route under hostile credentials", () => {
  it.each([
    ["an unsigned token (alg none)", `Bearer ${SECRETS[0]}`],
    ["a forged signature", `Bearer ${SECRETS[1]}`],
    ["an empty bearer", "Bearer "],
    ["a token in the basic scheme", `Basic ${SECRETS[1]}`],
    ["a bearer of 8 KB", `Bearer ${"x".repeat(8 * 1024)}`],
    ["two tokens", `Bearer ${SECRETS[0]} ${SECRETS[1]}`],
  ])("%s: 401", async (_case, header) => {
    const response = await server.fetch("/me", {
      headers: { authorization: header },
    });
    const text = await response.text();
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
  });

  it("a raw Authorization header with control bytes is refused by the parser or with a 401, never a 500", async () => {
    const exchange = await openRaw(server.port);
    await exchange.write(
      "GET /me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \u0001\u007f\r\nConnection: close\r\n\r\n",
    );
    expect([400, 401]).toContain(statusOf(await exchange.closed()));
  });

  it("a head larger than the limit: Node's 431", async () => {
    const exchange = await openRaw(server.port);
    await exchange.write(
      `GET /me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${"y".repeat(32 * 1024)}\r\nConnection: close\r\n\r\n`,
    );
    expect(statusOf(await exchange.closed())).toBe(431);
  });

  it("an API key in the query string is never written by the access log", async () => {
    expect((await server.fetch("/keyed?api_key=wrong-key-0123")).status).toBe(401);
    expect((await server.fetch("/keyed?api_key=right-key")).status).toBe(200);
    const log = lines.join("");
    expect(log).toContain('"path":"/keyed"');
    expect(log).not.toContain("right-key");
    for (const secret of SECRETS) expect(log).not.toContain(secret);
  });

  it("a credential never reaches the error record of a 500, nor its answer", async () => {
    const before = lines.length;
    const response = await server.fetch("/keyed-broken?api_key=right-key", {
      headers: { authorization: `Bearer ${SECRETS[1]}`, cookie: "session=cookie-secret-42" },
    });
    expect([response.status, await response.text()]).toEqual([500, '{"detail":"Internal Server Error"}']);
    const records = lines.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>);
    const error = records.find((record) => record.level === 50);
    expect(error).toMatchObject({ path: "/keyed-broken", err: { message: "the store is down" } });
    const log = lines.slice(before).join("");
    for (const secret of ["right-key", SECRETS[1]!, "cookie-secret-42"]) expect(log).not.toContain(secret);
  });
});
