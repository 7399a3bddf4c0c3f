import { createServer, request as httpsRequest } from "node:https";
import type { AddressInfo } from "node:net";
import { type AppOptions, createApp, httpsRedirect } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, path, type RouteDefinition } from "unruffled/route";
import { websocket } from "unruffled/websocket";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { rawRequest, sendRaw } from "../reliability/send-raw.ts";
import { wireRequest } from "../support/http-request.ts";
import { selfSigned } from "../support/self-signed.ts";
import { serve } from "../support/serve.ts";
import { upgradeAnswer } from "../websocket/upgrade-answer.ts";

const calls: string[] = [];
const hello = endpoint({
  returns: JsonResponse,
  handler: (request) => {
    calls.push(request.method);
    return new JsonResponse({ scheme: request.client.scheme });
  },
});
const routes: RouteDefinition[] = [path("/hello", { endpoint: hello, methods: ["GET", "POST"] })];

function serveRedirecting(appOptions: Omit<AppOptions, "routes"> = {}) {
  return serve(routes, { ...appOptions, middleware: [httpsRedirect()] });
}

/** The status and Location of `method path` sent with `headers` over a plain socket. */
async function redirectOf(base: string, headers: Record<string, string>, target = "/hello", method = "GET") {
  const answer = await wireRequest(base, method, target, headers);
  return [answer.status, answer.headers.location, answer.body.toString()];
}

const closers: (() => Promise<void>)[] = [];
afterAll(() => Promise.all(closers.splice(0).map((close) => close())));

describe("httpsRedirect()", () => {
  it("redirects a plain HTTP request to the same URL over HTTPS with 307, the query kept", async () => {
    const server = await serveRedirecting();
    expect(await redirectOf(server.url, { host: "example.com" }, "/hello?page=2&q=a%20b")).toEqual([
      307,
      "https://example.com/hello?page=2&q=a%20b",
      "",
    ]);
  });

  it("drops port 80 (and 443), and keeps another port", async () => {
    const server = await serveRedirecting();
    expect(await redirectOf(server.url, { host: "example.com:80" })).toEqual([
      307,
      "https://example.com/hello",
      "",
    ]);
    expect(await redirectOf(server.url, { host: "example.com:443" })).toEqual([
      307,
      "https://example.com/hello",
      "",
    ]);
    expect(await redirectOf(server.url, { host: "example.com:8443" })).toEqual([
      307,
      "https://example.com:8443/hello",
      "",
    ]);
    expect(await redirectOf(server.url, { host: "[::1]:80" })).toEqual([307, "https://[::1]/hello", ""]);
  });

  it("redirects a POST with 307 without running the endpoint, so the client sends it again over HTTPS", async () => {
    const server = await serveRedirecting();
    calls.length = 0;
    expect(await redirectOf(server.url, { host: "example.com" }, "/hello", "POST")).toEqual([
      307,
      "https://example.com/hello",
      "",
    ]);
    expect(calls).toEqual([]);
  });

  it("redirects the 404 of a path no route serves too", async () => {
    const server = await serveRedirecting();
    expect(await redirectOf(server.url, { host: "example.com" }, "/nope")).toEqual([
      307,
      "https://example.com/nope",
      "",
    ]);
  });

  it("passes a request that came over TLS", async () => {
    const app = createApp({ routes, middleware: [httpsRedirect()] });
    const server = createServer({ ...selfSigned() }, app.nodeHandler);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const { port } = server.address() as AddressInfo;
    const answer = await new Promise<[number, string]>((resolve, reject) => {
      const outgoing = httpsRequest(
        { host: "127.0.0.1", port, path: "/hello", rejectUnauthorized: false, agent: false },
        (incoming) => {
          let text = "";
          incoming.on("data", (chunk) => {
            text += chunk;
          });
          incoming.on("end", () => resolve([incoming.statusCode!, text]));
        },
      );
      outgoing.on("error", reject);
      outgoing.end();
    });
    expect(answer).toEqual([200, '{"scheme":"https"}']);
  });

  it("passes a request a trusted proxy says came over HTTPS (X-Forwarded-Proto), and redirects to its forwarded host otherwise", async () => {
    const server = await serveRedirecting({ settings: { PROXIES: { trusted: ["loopback"] } } });
    const forwarded = {
      host: "app.internal:8000",
      "x-forwarded-for": "203.0.113.7",
      "x-forwarded-host": "example.com",
    };
    const secure = await wireRequest(server.url, "GET", "/hello", {
      ...forwarded,
      "x-forwarded-proto": "https",
    });
    expect([secure.status, secure.body.toString()]).toEqual([200, '{"scheme":"https"}']);
    expect(await redirectOf(server.url, { ...forwarded, "x-forwarded-proto": "http" })).toEqual([
      307,
      "https://example.com/hello",
      "",
    ]);
  });

  it("passes a request a trusted proxy says came over HTTPS in Forwarded (RFC 7239)", async () => {
    const server = await serveRedirecting({
      settings: { PROXIES: { trusted: ["loopback"], headers: "forwarded" } },
    });
    const secure = await wireRequest(server.url, "GET", "/hello", {
      host: "example.com",
      forwarded: "for=203.0.113.7;proto=https",
    });
    expect([secure.status, secure.body.toString()]).toEqual([200, '{"scheme":"https"}']);
  });

  it("redirects when X-Forwarded-Proto: https comes from a peer that is not trusted", async () => {
    const server = await serveRedirecting();
    expect(
      await redirectOf(server.url, {
        host: "example.com",
        "x-forwarded-for": "203.0.113.7",
        "x-forwarded-proto": "https",
      }),
    ).toEqual([307, "https://example.com/hello", ""]);
  });

  it("refuses a plain HTTP request without Host (HTTP/1.0) with 400: there is nowhere to redirect it", async () => {
    const server = await serveRedirecting();
    const request = rawRequest("GET", "/hello", {})
      .toString("latin1")
      .replace("HTTP/1.1\r\nHost: 127.0.0.1\r\n", "HTTP/1.0\r\n");
    const answer = await sendRaw(Number(new URL(server.url).port), Buffer.from(request, "latin1"));
    expect([answer?.status, JSON.parse(answer!.body.toString())]).toEqual([
      400,
      { detail: "This app is served over HTTPS: the request names no host to redirect to." },
    ]);
  });
});

// A WebSocket upgrade runs no middleware; httpsRedirect() guards it too (its guardUpgrade): an
// upgrade over plain ws: is never served, it gets 307 to wss: (docs/websockets.md).
describe("httpsRedirect() on a WebSocket upgrade", () => {
  const chat = websocket({ inbound: z.object({}), outbound: z.object({}), async handler() {} });
  const socketRoutes: RouteDefinition[] = [path("/chat", { websocket: chat })];

  it("redirects an upgrade over plain ws: to the same URL over wss: with 307, port 80 dropped, the query kept", async () => {
    const server = await serve(socketRoutes, { middleware: [httpsRedirect()] });
    const answer = await upgradeAnswer(server.port, "/chat?room=1", { host: "example.com:80" });
    expect([answer.status, answer.headers.location, answer.body]).toEqual([
      307,
      "wss://example.com/chat?room=1",
      null,
    ]);
    const elsewhere = await upgradeAnswer(server.port, "/chat", { host: "example.com:8080" });
    expect(elsewhere.headers.location).toBe("wss://example.com:8080/chat");
  });

  it("opens the socket for an upgrade a trusted proxy says came over TLS, and redirects an untrusted peer's", async () => {
    const trusted = await serve(socketRoutes, {
      middleware: [httpsRedirect()],
      settings: { PROXIES: { trusted: ["loopback"] } },
    });
    const forwarded = { "x-forwarded-for": "203.0.113.7", "x-forwarded-proto": "https" };
    expect((await upgradeAnswer(trusted.port, "/chat", forwarded)).status).toBe(101);
    const untrusted = await serve(socketRoutes, { middleware: [httpsRedirect()] });
    const answer = await upgradeAnswer(untrusted.port, "/chat", { ...forwarded, host: "example.com" });
    expect([answer.status, answer.headers.location]).toEqual([307, "wss://example.com/chat"]);
  });
});
