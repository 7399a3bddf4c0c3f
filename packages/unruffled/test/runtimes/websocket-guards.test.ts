// The middleware that guards WebSocket upgrades (trustedHost(), httpsRedirect(), an app's own with
// guardUpgrade) answer alike on Node (its `upgrade`, through ws), Bun (Bun.serve's own WebSockets)
// and Deno (node:http): websocket-guards-fixture-app.ts, served by `unruffled serve` on each, is
// behind a proxy on loopback that it trusts, which this process plays.
import { fileURLToPath } from "node:url";
import { endProcessGroups } from "process-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRaw, statusOf } from "../support/raw-http.ts";
import { upgradeAnswer } from "../websocket/upgrade-answer.ts";
import { type RuntimeName, type ServedApp, serveOn } from "./runtime-process.ts";

const fixture = fileURLToPath(new URL("./websocket-guards-fixture-app.ts", import.meta.url));

afterAll(endProcessGroups);

/** What the proxy adds: the client's address, and that it came over TLS. */
const OVER_TLS = { "x-forwarded-for": "203.0.113.7", "x-forwarded-proto": "https" };

describe.each(["node", "bun", "deno"] as const satisfies readonly RuntimeName[])("on %s", (runtime) => {
  let served: ServedApp;
  beforeAll(async () => {
    served = await serveOn(runtime, fixture);
  }, 60_000);
  afterAll(async () => {
    served.child.kill("SIGTERM");
    await served.exited;
  });

  const stats = async () =>
    // Through the proxy too: httpsRedirect() redirects a plain request.
    (await (await fetch(`${served.origin}/stats`, { headers: OVER_TLS })).json()) as {
      opened: string[];
      sockets: number;
    };

  it("opens the socket of a listed host that came over TLS", async () => {
    const answer = await upgradeAnswer(served.port, "/chat", OVER_TLS);
    expect(answer.status).toBe(101);
    await expect.poll(async () => (await stats()).opened).toContain(`https://127.0.0.1:${served.port}`);
  });

  it("refuses an unlisted host with 400 in problem details, DNS rebinding included, and opens nothing", async () => {
    const before = (await stats()).opened.length;
    const answer = await upgradeAnswer(served.port, "/chat", {
      ...OVER_TLS,
      host: "evil.example",
      origin: "http://evil.example",
    });
    expect([answer.status, answer.headers["content-type"], answer.body]).toEqual([
      400,
      "application/problem+json",
      expect.objectContaining({ status: 400, detail: "Invalid host header" }),
    ]);
    await expect.poll(async () => (await stats()).sockets).toBe(0);
    expect((await stats()).opened.length).toBe(before);
  });

  it("checks the host the trusted proxy forwarded", async () => {
    const answer = await upgradeAnswer(served.port, "/chat", {
      ...OVER_TLS,
      "x-forwarded-host": "evil.example",
    });
    expect([answer.status, answer.body]).toEqual([
      400,
      expect.objectContaining({ detail: "Invalid host header" }),
    ]);
  });

  it("redirects to www. with 307 to the wss: URL the proxy's client used", async () => {
    const answer = await upgradeAnswer(served.port, "/chat?room=1", { ...OVER_TLS, host: "chat.example" });
    expect([answer.status, answer.headers.location]).toEqual([307, "wss://www.chat.example/chat?room=1"]);
  });

  it("redirects an upgrade over plain ws: to wss: with 307", async () => {
    const answer = await upgradeAnswer(served.port, "/chat", { "x-forwarded-for": "203.0.113.7" });
    expect([answer.status, answer.headers.location]).toEqual([307, `wss://127.0.0.1:${served.port}/chat`]);
  });

  it("closes the connection of every refused upgrade itself, with connection: close", async () => {
    const refused = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const exchange = await openRaw(served.port);
        await exchange.write(
          `GET /chat HTTP/1.1\r\nhost: evil.example\r\nupgrade: websocket\r\nconnection: Upgrade\r\n` +
            "sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\n\r\n",
        );
        // The client never closes its side: the server must. The fixture's timeouts are far longer, and
        // Bun reaps an idle connection after about 12 s of its own: the wait, generous for a close on
        // loopback, stays under that.
        const received = await exchange.closed(8_000);
        const head = received.slice(0, received.indexOf("\r\n\r\n")).toLowerCase();
        return [statusOf(received), head.includes("\r\nconnection: close")];
      }),
    );
    expect(refused).toEqual(Array.from({ length: 8 }, () => [400, true]));
  });

  it("refuses with the app's own guard, after the others", async () => {
    const answer = await upgradeAnswer(served.port, "/chat?blocked=1", OVER_TLS);
    expect([answer.status, answer.body]).toEqual([
      403,
      expect.objectContaining({ detail: "Blocked by the app's own guard" }),
    ]);
    const plain = await upgradeAnswer(served.port, "/chat?blocked=1", { host: "evil.example" });
    expect(plain.status).toBe(400);
  });
});
