import fc from "fast-check";
import { headerValue } from "hostile-input";
import {
  type App,
  type AppOptions,
  createApp,
  type TrustedHostOptions,
  trustedHost,
  ValueError,
} from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, path, type RouteDefinition } from "unruffled/route";
import { testClient } from "unruffled/testing";
import { websocket } from "unruffled/websocket";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { rawRequest, sendRaw } from "../reliability/send-raw.ts";
import { wireRequest } from "../support/http-request.ts";
import { serve } from "../support/serve.ts";
import { openConnections, upgradeAnswer } from "../websocket/upgrade-answer.ts";

const hello = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({ hello: "world" }) });
const routes: RouteDefinition[] = [path("/hello", { endpoint: hello })];

async function serveWithHosts(options: TrustedHostOptions, appOptions: Omit<AppOptions, "routes"> = {}) {
  return serve(routes, { ...appOptions, middleware: [trustedHost(options)] });
}

/** The status and body of `GET path` sent with `headers` (Host among them) over a socket. */
async function get(base: string, headers: Record<string, string>, path = "/hello") {
  const answer = await wireRequest(base, "GET", path, headers);
  const text = answer.body.toString();
  return [answer.status, text === "" ? undefined : JSON.parse(text)];
}

const REFUSED = [400, { detail: "Invalid host header" }];
const SERVED = [200, { hello: "world" }];

describe("trustedHost()", () => {
  it("serves a request whose Host is listed, its port ignored", async () => {
    const server = await serveWithHosts({ hosts: ["example.com"] });
    expect(await get(server.url, { host: "example.com" })).toEqual(SERVED);
    expect(await get(server.url, { host: "example.com:8000" })).toEqual(SERVED);
  });

  it("refuses a request whose Host is not listed with 400 Invalid host header", async () => {
    const server = await serveWithHosts({ hosts: ["example.com"] });
    expect(await get(server.url, { host: "evil.example" })).toEqual(REFUSED);
  });

  it("refuses the 404 of a path no route serves too, before it", async () => {
    const server = await serveWithHosts({ hosts: ["example.com"] });
    expect(await get(server.url, { host: "evil.example" }, "/nope")).toEqual(REFUSED);
    expect(await get(server.url, { host: "example.com" }, "/nope")).toEqual([
      404,
      { detail: "Not Found: /nope" },
    ]);
  });

  it("compares hosts without regard to case, and without a trailing dot", async () => {
    const server = await serveWithHosts({ hosts: ["Example.COM"] });
    expect(await get(server.url, { host: "EXAMPLE.com:8000" })).toEqual(SERVED);
    expect(await get(server.url, { host: "example.com." })).toEqual(SERVED);
  });

  it("lets *.example.com match the subdomains of example.com, not example.com itself", async () => {
    const server = await serveWithHosts({ hosts: ["*.example.com"] });
    expect(await get(server.url, { host: "api.example.com" })).toEqual(SERVED);
    expect(await get(server.url, { host: "a.b.example.com:8443" })).toEqual(SERVED);
    expect(await get(server.url, { host: "example.com" })).toEqual(REFUSED);
    expect(await get(server.url, { host: "evilexample.com" })).toEqual(REFUSED);
  });

  it('allows any host with "*"', async () => {
    const server = await serveWithHosts({ hosts: ["example.com", "*"] });
    expect(await get(server.url, { host: "anything.example" })).toEqual(SERVED);
  });

  it("matches an IPv6 literal Host, written with or without brackets, in any of its forms", async () => {
    const server = await serveWithHosts({ hosts: ["::1", "[2001:DB8::1]"] });
    expect(await get(server.url, { host: "[::1]:8000" })).toEqual(SERVED);
    expect(await get(server.url, { host: "[0:0:0:0:0:0:0:1]" })).toEqual(SERVED);
    expect(await get(server.url, { host: "[2001:db8:0::1]" })).toEqual(SERVED);
    expect(await get(server.url, { host: "[::2]" })).toEqual(REFUSED);
  });

  it("matches an IPv4 address", async () => {
    const server = await serveWithHosts({ hosts: ["127.0.0.1"] });
    expect(await get(server.url, {})).toEqual(SERVED); // Node's client sends 127.0.0.1:<port>
    expect(await get(server.url, { host: "127.0.0.2" })).toEqual(REFUSED);
  });

  it("refuses a request without Host (HTTP/1.0) with 400", async () => {
    const server = await serveWithHosts({ hosts: ["example.com"] });
    const request = rawRequest("GET", "/hello", {})
      .toString("latin1")
      .replace("HTTP/1.1\r\nHost: 127.0.0.1\r\n", "HTTP/1.0\r\n");
    const answer = await sendRaw(Number(new URL(server.url).port), Buffer.from(request, "latin1"));
    expect([answer?.status, answer?.body.toString()]).toEqual([400, '{"detail":"Invalid host header"}']);
  });

  it("reads the host a trusted proxy forwarded (X-Forwarded-Host), and ignores an untrusted peer's", async () => {
    const trusted = await serveWithHosts(
      { hosts: ["example.com"] },
      { settings: { PROXIES: { trusted: ["loopback"] } } },
    );
    const forwarded = { host: "app.internal:8000", "x-forwarded-for": "203.0.113.7" };
    expect(await get(trusted.url, { ...forwarded, "x-forwarded-host": "example.com" })).toEqual(SERVED);
    expect(await get(trusted.url, { ...forwarded, "x-forwarded-host": "evil.example" })).toEqual(REFUSED);
    const untrusted = await serveWithHosts({ hosts: ["example.com"] });
    expect(
      await get(untrusted.url, { ...forwarded, host: "evil.example", "x-forwarded-host": "example.com" }),
    ).toEqual(REFUSED);
  });

  it("redirects example.com to www.example.com (307, port, path and query kept) when only www.example.com is listed", async () => {
    const server = await serveWithHosts({ hosts: ["www.example.com"] });
    const answer = await wireRequest(server.url, "GET", "/hello?page=2", { host: "Example.com:8000" });
    expect([answer.status, answer.headers.location, answer.body.toString()]).toEqual([
      307,
      "http://www.Example.com:8000/hello?page=2",
      "",
    ]);
  });

  it("redirects to the scheme and host a trusted proxy forwarded", async () => {
    const server = await serveWithHosts(
      { hosts: ["www.example.com"] },
      { settings: { PROXIES: { trusted: ["loopback"] } } },
    );
    const answer = await wireRequest(server.url, "GET", "/hello", {
      host: "app.internal:8000",
      "x-forwarded-for": "203.0.113.7",
      "x-forwarded-proto": "https",
      "x-forwarded-host": "example.com",
    });
    expect([answer.status, answer.headers.location]).toEqual([307, "https://www.example.com/hello"]);
  });

  it("does not redirect with wwwRedirect: false, nor from a *.example.com pattern, nor a subdomain", async () => {
    const off = await serveWithHosts({ hosts: ["www.example.com"], wwwRedirect: false });
    expect(await get(off.url, { host: "example.com" })).toEqual(REFUSED);
    const wildcard = await serveWithHosts({ hosts: ["*.example.com"] });
    expect(await get(wildcard.url, { host: "example.com" })).toEqual(REFUSED);
    const www = await serveWithHosts({ hosts: ["www.example.com"] });
    expect(await get(www.url, { host: "api.example.com" })).toEqual(REFUSED);
  });

  it("refuses in the app's error format: problem details with ERRORS.format problem", async () => {
    const server = await serveWithHosts(
      { hosts: ["example.com"] },
      { settings: { ERRORS: { format: "problem" } } },
    );
    const answer = await wireRequest(server.url, "GET", "/hello", { host: "evil.example" });
    const problem = JSON.parse(answer.body.toString());
    expect([answer.status, answer.headers["content-type"], problem]).toEqual([
      400,
      "application/problem+json",
      {
        type: "about:blank",
        title: "Bad Request",
        status: 400,
        detail: "Invalid host header",
        instance: problem.instance,
      },
    ]);
  });

  it("is answered by the test client, whose Host is localhost unless a test gives one", async () => {
    const app = createApp({ routes, middleware: [trustedHost({ hosts: ["example.com"] })] });
    const client = testClient(app);
    const refused = await client.get("/hello");
    const served = await client.get("/hello", { headers: { host: "example.com" } });
    expect([refused.status, served.status, served.json()]).toEqual([400, 200, { hello: "world" }]);
  });

  it("answers any Host and forwarded host with 200, 307 to a www. host, or 400: never a 500 or a hang", async () => {
    const server = await serveWithHosts(
      { hosts: ["www.example.com", "*.example.com", "::1"] },
      { settings: { PROXIES: { trusted: ["loopback"] } } },
    );
    const { port } = new URL(server.url);
    const names = ["example.com", "www.", "*.", ".", ":", "[", "]", "::1", "%", "8000", "EXAMPLE.COM"];
    await fc.assert(
      fc.asyncProperty(headerValue(names), headerValue(names), async (host, forwardedHost) => {
        const request = rawRequest("GET", "/hello", {
          "x-forwarded-for": "203.0.113.7",
          "x-forwarded-host": forwardedHost,
        });
        // rawRequest writes Host: 127.0.0.1 first: replace it with the one drawn.
        const answer = await sendRaw(
          Number(port),
          Buffer.from(request.toString("latin1").replace("Host: 127.0.0.1", `Host: ${host}`), "latin1"),
        );
        if (answer === undefined) throw new Error("no answer");
        if (answer.status === 307 && /\r\nlocation: https?:\/\/www\./i.test(answer.head)) return;
        if (answer.status === 200 || answer.status === 400) return;
        throw new Error(`${answer.status} for ${JSON.stringify([host, forwardedHost])}`);
      }),
      { numRuns: 150 },
    );
  });

  it("refuses options that cannot work when the app is built, saying what to write", () => {
    expect(() => trustedHost({ hosts: [] })).toThrow(
      new ValueError(
        'trustedHost() needs the hosts the app serves: trustedHost({ hosts: ["example.com", "*.example.com"] }), or ["*"] for any host.',
      ),
    );
    expect(() => trustedHost({ hosts: ["example.*"] })).toThrow(
      new ValueError(
        'trustedHost(): "example.*" has a "*" elsewhere than a leading "*.": write "*.example.com" for the subdomains of example.com, or "*" for any host.',
      ),
    );
    expect(() => trustedHost({ hosts: ["*example.com"] })).toThrow(
      new ValueError(
        'trustedHost(): "*example.com" has a "*" elsewhere than a leading "*.": write "*.example.com" for the subdomains of example.com, or "*" for any host.',
      ),
    );
    expect(() => trustedHost({ hosts: ["example.com:8000"] })).toThrow(
      new ValueError(
        'trustedHost(): "example.com:8000" is no host: write a name or an address without scheme, port or path ("example.com", "*.example.com"); did you mean "example.com"?',
      ),
    );
    expect(() => trustedHost({ hosts: ["https://example.com/"] })).toThrow(
      new ValueError(
        'trustedHost(): "https://example.com/" is no host: write a name or an address without scheme, port or path ("example.com", "*.example.com"); did you mean "example.com"?',
      ),
    );
  });
});

// A WebSocket upgrade runs no middleware; trustedHost() guards it too (its guardUpgrade), so a page
// on a rebound name reaches no socket of the app (docs/websockets.md, "Middleware and upgrades").
describe("trustedHost() on a WebSocket upgrade", () => {
  const opened: string[] = [];
  const chat = websocket({
    inbound: z.object({}),
    outbound: z.object({}),
    async handler(_socket, _params, request) {
      opened.push(request.client.origin ?? "");
    },
  });
  const socketRoutes: RouteDefinition[] = [
    path("/hello", { endpoint: hello }),
    path("/chat", { websocket: chat }),
  ];
  const apps: App[] = [];
  afterAll(() => Promise.all(apps.map((app) => app.close())));

  async function listening(options: TrustedHostOptions, appOptions: Omit<AppOptions, "routes"> = {}) {
    const app = createApp({ ...appOptions, routes: socketRoutes, middleware: [trustedHost(options)] });
    apps.push(app);
    const server = await app.listen({ port: 0, host: "127.0.0.1" });
    return { port: app.address()!.port, server };
  }

  it("opens the socket for a listed host", async () => {
    const { port } = await listening({ hosts: ["chat.example"] });
    opened.length = 0;
    const answer = await upgradeAnswer(port, "/chat", { host: "Chat.example:8000" });
    expect(answer.status).toBe(101);
    await expect.poll(() => opened).toEqual(["http://Chat.example:8000"]);
  });

  it("refuses an unlisted host with the 400 a request gets, before the handshake, and leaves no connection open", async () => {
    const { port, server } = await listening({ hosts: ["chat.example"] });
    opened.length = 0;
    const answer = await upgradeAnswer(port, "/chat", { host: "evil.example" });
    expect([answer.status, answer.headers.connection, answer.body]).toEqual([400, "close", REFUSED[1]]);
    expect((await upgradeAnswer(port, "/nowhere", { host: "evil.example" })).status).toBe(400);
    await expect.poll(() => openConnections(server), { timeout: 15_000 }).toBe(0);
    expect(opened).toEqual([]);
  });

  it("refuses DNS rebinding: a page at evil.example whose Origin and Host both name evil.example", async () => {
    const { port } = await listening({ hosts: ["chat.example"] });
    const answer = await upgradeAnswer(port, "/chat", {
      host: "evil.example",
      origin: "http://evil.example",
    });
    expect([answer.status, answer.body]).toEqual(REFUSED);
    // The same page on the app's own name is the route's same-origin case: it opens.
    const own = await upgradeAnswer(port, "/chat", { host: "chat.example", origin: "http://chat.example" });
    expect(own.status).toBe(101);
  });

  it("checks the host a trusted proxy forwarded, not the proxy's Host", async () => {
    const { port } = await listening(
      { hosts: ["chat.example"] },
      { settings: { PROXIES: { trusted: ["loopback"] } } },
    );
    const forwarded = { host: "chat.example", "x-forwarded-for": "203.0.113.7" };
    const evil = await upgradeAnswer(port, "/chat", { ...forwarded, "x-forwarded-host": "evil.example" });
    expect([evil.status, evil.body]).toEqual(REFUSED);
    const own = await upgradeAnswer(port, "/chat", {
      ...forwarded,
      host: "app.internal:8000",
      "x-forwarded-host": "chat.example",
    });
    expect(own.status).toBe(101);
  });

  it("refuses in the app's error format: problem details with ERRORS.format problem", async () => {
    const { port } = await listening(
      { hosts: ["chat.example"] },
      { settings: { ERRORS: { format: "problem" } } },
    );
    const answer = await upgradeAnswer(port, "/chat", { host: "evil.example" });
    expect([answer.status, answer.headers["content-type"], answer.body]).toEqual([
      400,
      "application/problem+json",
      expect.objectContaining({ status: 400, detail: "Invalid host header" }),
    ]);
  });

  it("redirects example.com to www.example.com as a request is, to the ws: URL (307, port, path and query kept)", async () => {
    const { port } = await listening({ hosts: ["www.chat.example"] });
    const answer = await upgradeAnswer(port, "/chat?room=1", { host: "chat.example:8000" });
    expect([answer.status, answer.headers.location, answer.body]).toEqual([
      307,
      "ws://www.chat.example:8000/chat?room=1",
      null,
    ]);
  });
});
