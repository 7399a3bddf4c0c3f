import fc from "fast-check";
import { headerValue } from "hostile-input";
import { createApp, type Settings, ValueError } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";
import { startServer, testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { resolveClient } from "../../src/client-address/resolve-client.ts";
import { trustedProxies } from "../../src/client-address/trusted-proxies.ts";
import { bodyOf, openRaw } from "../support/raw-http.ts";

const whoAmI = endpoint({
  returns: JsonResponse,
  handler: (request) => new JsonResponse(request.client),
});
const routes = [path("/who", { endpoint: whoAmI })];

/** `request.client` for a request from `peer` with `headers`, with the `PROXIES` setting given. */
function clientOf(proxies: unknown, peer: string, headers: Record<string, string>) {
  return resolveClient(
    { remoteAddress: peer, remotePort: 41_000 },
    { host: "app.internal:8000", ...headers },
    trustedProxies(proxies),
  );
}

describe("request.client", () => {
  it("is the socket's peer, with its port, the http scheme and the Host, when no proxy is trusted", async () => {
    const server = await startServer(createApp({ routes }));
    try {
      const response = await server.fetch("/who", {
        headers: {
          "x-forwarded-for": "203.0.113.7",
          "x-forwarded-proto": "https",
          forwarded: "for=203.0.113.8",
        },
      });
      const { port } = new URL(server.url);
      expect(await response.json()).toEqual({
        address: "127.0.0.1",
        host: "127.0.0.1",
        port: expect.any(Number),
        scheme: "http",
        origin: `http://127.0.0.1:${port}`,
      });
    } finally {
      await server.close();
    }
  });

  it("ignores forwarding headers from an untrusted peer: a spoofed address never becomes the client", () => {
    const spoofed = {
      "x-forwarded-for": "10.0.0.1",
      "x-forwarded-proto": "https",
      "x-forwarded-host": "bank.example",
    };
    expect(clientOf({ trusted: ["10.0.0.0/8"] }, "198.51.100.20", spoofed)).toEqual({
      address: "198.51.100.20",
      host: "198.51.100.20",
      port: 41_000,
      scheme: "http",
      origin: "http://app.internal:8000",
    });
  });

  it("comes from X-Forwarded-For, -Proto and -Host when the peer is a trusted proxy", async () => {
    const settings: Settings = { PROXIES: { trusted: ["loopback"] } };
    const server = await startServer(createApp({ routes, settings }));
    try {
      const response = await server.fetch("/who", {
        headers: {
          "x-forwarded-for": "203.0.113.7",
          "x-forwarded-proto": "https",
          "x-forwarded-host": "api.example.com",
        },
      });
      expect(await response.json()).toEqual({
        address: "203.0.113.7",
        host: "203.0.113.7",
        scheme: "https",
        origin: "https://api.example.com",
      });
    } finally {
      await server.close();
    }
  });

  it("resolves a chain of two trusted proxies to the address the outer one saw", () => {
    // client 203.0.113.7 → edge proxy 10.0.0.5 → inner proxy 10.0.1.9 → app
    const headers = {
      "x-forwarded-for": "198.51.100.1, 203.0.113.7, 10.0.0.5",
      "x-forwarded-proto": "https",
    };
    expect(clientOf({ trusted: ["10.0.0.0/8"] }, "10.0.1.9", headers).address).toBe("203.0.113.7");
    // The client wrote "198.51.100.1" itself: untrusted, so never believed.
    expect(clientOf({ trusted: ["10.0.0.0/8"] }, "10.0.1.9", headers).scheme).toBe("https");
  });

  it("trusts as many hops as a hop count says, counted from the app outwards", () => {
    const headers = { "x-forwarded-for": "198.51.100.1, 203.0.113.7, 10.0.0.5" };
    expect(clientOf({ trusted: 1 }, "10.0.1.9", headers).address).toBe("10.0.0.5");
    expect(clientOf({ trusted: 2 }, "10.0.1.9", headers).address).toBe("203.0.113.7");
    expect(clientOf({ trusted: 9 }, "10.0.1.9", headers).address).toBe("198.51.100.1");
  });

  it("reads RFC 7239 Forwarded, IPv6 and ports included, when the proxies are said to send it", () => {
    const proxies = { trusted: ["fd00::/8", "10.0.0.0/8"], headers: "forwarded" };
    const headers = {
      forwarded: 'for="[2001:db8:cafe::17]:4711";proto=https;host=shop.example, for=10.0.0.5;proto=http',
      "x-forwarded-for": "192.0.2.99",
    };
    expect(clientOf(proxies, "fd00::1", headers)).toEqual({
      address: "2001:db8:cafe::17",
      host: "2001:db8:cafe::17",
      port: undefined,
      scheme: "https",
      origin: "https://shop.example",
    });
    // The other header is not read: a client could have written it.
    expect(
      clientOf({ trusted: ["10.0.0.0/8"], headers: "forwarded" }, "10.0.0.9", {
        "x-forwarded-for": "192.0.2.99",
      }).address,
    ).toBe("10.0.0.9");
  });

  it("reads X-Forwarded-* only by default: a Forwarded header a client slipped past the proxy is ignored", () => {
    const proxies = { trusted: ["10.0.0.0/8"] };
    const slipped = { forwarded: "for=192.0.2.99;proto=https;host=evil.example" };
    expect(clientOf(proxies, "10.0.0.2", { ...slipped, "x-forwarded-for": "203.0.113.7" })).toEqual({
      address: "203.0.113.7",
      host: "203.0.113.7",
      port: undefined,
      scheme: "http",
      origin: "http://app.internal:8000",
    });
    expect(clientOf(proxies, "10.0.0.2", slipped)).toEqual({
      address: "10.0.0.2",
      host: "10.0.0.2",
      port: 41_000,
      scheme: "http",
      origin: "http://app.internal:8000",
    });
  });

  it("trusts the ranges named loopback, linklocal and uniquelocal, and IPv6 ranges, and no address outside them", () => {
    const forwardedBy = (proxies: unknown, peer: string) =>
      clientOf(proxies, peer, { "x-forwarded-for": "203.0.113.7" }).address === "203.0.113.7";
    const named = { trusted: ["loopback", "linklocal", "uniquelocal"] };
    const peers = {
      "127.0.0.1": true,
      "::1": true,
      "169.254.10.1": true,
      "fe80::1": true,
      "10.1.2.3": true,
      "172.16.0.1": true,
      "172.31.255.254": true,
      "192.168.1.1": true,
      "fd12::1": true,
      "172.32.0.1": false,
      "192.169.0.1": false,
      "8.8.8.8": false,
      "2001:db8::1": false,
    };
    expect(Object.fromEntries(Object.keys(peers).map((peer) => [peer, forwardedBy(named, peer)]))).toEqual(
      peers,
    );
    expect([
      forwardedBy({ trusted: ["fd00::/8"] }, "fd00::7"),
      forwardedBy({ trusted: ["fd00::/8"] }, "fe00::7"),
      forwardedBy({ trusted: ["2001:db8::5"] }, "2001:db8::5"),
      forwardedBy({ trusted: ["2001:db8::5"] }, "2001:db8::6"),
    ]).toEqual([true, false, true, false]);
  });

  it("believes any peer and every hop with trusted: true", () => {
    const headers = { "x-forwarded-for": "198.51.100.1, 203.0.113.7", "x-forwarded-proto": "https" };
    expect(clientOf({ trusted: true }, "192.0.2.50", headers)).toEqual({
      address: "198.51.100.1",
      host: "198.51.100.1",
      port: undefined,
      scheme: "https",
      origin: "https://app.internal:8000",
    });
  });

  it("trusts an IPv4 proxy as a dual-stack socket shows it (::ffff:a.b.c.d)", () => {
    expect(
      clientOf({ trusted: ["127.0.0.1"] }, "::ffff:127.0.0.1", { "x-forwarded-for": "203.0.113.7" }).address,
    ).toBe("203.0.113.7");
  });

  it("reads an X-Forwarded-For entry that carries a port (as Azure's proxies write it) as its address", () => {
    const proxies = { trusted: ["10.0.0.0/8"] };
    const headers = { "x-forwarded-for": "203.0.113.7:4711, 10.0.0.5:50123" };
    expect(clientOf(proxies, "10.0.0.1", headers).address).toBe("203.0.113.7");
    expect(clientOf(proxies, "10.0.0.1", { "x-forwarded-for": "[2001:db8::17]:4711" }).address).toBe(
      "2001:db8::17",
    );
    expect(clientOf(proxies, "10.0.0.1", { "x-forwarded-for": "2001:db8::17" }).address).toBe("2001:db8::17");
    // A port alone, or a bracket left open, is no address: the walk stops before it.
    expect(clientOf(proxies, "10.0.0.1", { "x-forwarded-for": "203.0.113.7, :4711" }).address).toBe(
      "10.0.0.1",
    );
    expect(clientOf(proxies, "10.0.0.1", { "x-forwarded-for": "[2001:db8::17" }).address).toBe("10.0.0.1");
  });

  it("stops at an unreadable entry and keeps the last address it could trust", () => {
    const proxies = { trusted: ["10.0.0.0/8"] };
    expect(clientOf(proxies, "10.0.0.1", { "x-forwarded-for": "not-an-ip, 203.0.113.7" }).address).toBe(
      "203.0.113.7",
    );
    expect(clientOf(proxies, "10.0.0.1", { "x-forwarded-for": "203.0.113.7, unknown" }).address).toBe(
      "10.0.0.1",
    );
    expect(
      clientOf({ ...proxies, headers: "forwarded" }, "10.0.0.1", { forwarded: 'for="_hidden"' }).address,
    ).toBe("10.0.0.1");
    expect(
      clientOf(proxies, "10.0.0.1", { "x-forwarded-proto": "gopher", "x-forwarded-for": "203.0.113.7" })
        .scheme,
    ).toBe("http");
    expect(
      clientOf(proxies, "10.0.0.1", {
        "x-forwarded-host": "evil.example/@x",
        "x-forwarded-for": "203.0.113.7",
      }).origin,
    ).toBe("http://app.internal:8000");
  });

  it("takes its origin from a target in absolute form, not from Host (RFC 9112 §3.2.2)", async () => {
    const server = await startServer(createApp({ routes }));
    try {
      const exchange = await openRaw(Number(new URL(server.url).port));
      await exchange.write(
        "GET http://api.example.com:8080/who HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
      );
      expect(JSON.parse(bodyOf(await exchange.closed())).origin).toBe("http://api.example.com:8080");
    } finally {
      await server.close();
    }
    // Behind a trusted proxy, the host it forwards comes first; the target's authority replaces Host after it.
    const proxies = trustedProxies({ trusted: ["10.0.0.0/8"] });
    const socket = { remoteAddress: "10.0.0.2", remotePort: 41_000 };
    const headers = { host: "evil.example", "x-forwarded-for": "203.0.113.7" };
    expect(resolveClient(socket, headers, proxies, "api.example.com").origin).toBe("http://api.example.com");
    expect(
      resolveClient(socket, { ...headers, "x-forwarded-host": "shop.example" }, proxies, "api.example.com")
        .origin,
    ).toBe("http://shop.example");
  });

  it("gives each request the origin of its own Host, whatever the request before it had", () => {
    const peer = { remoteAddress: "127.0.0.1", remotePort: 41_000 };
    const originOf = (host: string | undefined, encrypted = false) =>
      resolveClient({ ...peer, encrypted }, host === undefined ? {} : { host }, undefined).origin;
    expect([
      originOf("a.example"),
      originOf("b.example:8080"),
      originOf("b.example:8080", true),
      originOf("evil.example/@x"),
      originOf(undefined),
      originOf("a.example"),
    ]).toEqual([
      "http://a.example",
      "http://b.example:8080",
      "https://b.example:8080",
      undefined,
      undefined,
      "http://a.example",
    ]);
  });

  it("never throws on malformed forwarding headers, and names an address or the peer", () => {
    const names = ["for", "proto", "host", "by", "[", "]", '"', ";", ",", "::1", "10.0.0.1", "unknown"];
    const proxies = [
      trustedProxies({ trusted: true }),
      trustedProxies({ trusted: true, headers: "forwarded" }),
      trustedProxies({ trusted: ["10.0.0.0/8", "::1"] }),
      trustedProxies({ trusted: 3, headers: "forwarded" }),
    ];
    fc.assert(
      fc.property(
        headerValue(names),
        headerValue(names),
        headerValue(names),
        (forwardedFor, forwarded, proto) => {
          for (const trust of proxies) {
            const client = resolveClient(
              { remoteAddress: "10.0.0.1", remotePort: 1 },
              {
                "x-forwarded-for": forwardedFor,
                forwarded,
                "x-forwarded-proto": proto,
                "x-forwarded-host": proto,
              },
              trust,
            );
            // Plain checks: expect() in a loop of thousands would be most of the test's time.
            if (client.scheme !== "http" && client.scheme !== "https")
              throw new Error(`scheme ${client.scheme}`);
            if (typeof client.address !== "string") throw new Error("no address");
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it("is worked out on first use and kept: a request that never reads it pays nothing", async () => {
    const reads: string[] = [];
    const headers = new Proxy({ "x-forwarded-for": "203.0.113.7" } as Record<string, string>, {
      get(target, key) {
        if (typeof key === "string" && key.startsWith("x-forwarded")) reads.push(key);
        return target[key as string];
      },
    });
    const app = createApp({ routes, settings: { PROXIES: { trusted: true } } });
    const request = app.createRequest({
      method: "GET",
      url: "/who",
      headers,
      socket: { remoteAddress: "10.0.0.1" },
      body: undefined as never,
    });
    expect(reads).toEqual([]);
    expect(request.client.address).toBe("203.0.113.7");
    expect(request.client.address).toBe("203.0.113.7");
    expect(reads.filter((key) => key === "x-forwarded-for")).toHaveLength(1);
  });

  it("gives its address alone as request.clientAddress, with and without trusted proxies", () => {
    const requestTo = (app: ReturnType<typeof createApp>) =>
      app.createRequest({
        method: "GET",
        url: "/who",
        headers: { "x-forwarded-for": "203.0.113.7" },
        socket: { remoteAddress: "10.0.0.1" },
        body: undefined as never,
      });
    expect(requestTo(createApp({ routes })).clientAddress).toBe("10.0.0.1");
    const behindProxy = requestTo(createApp({ routes, settings: { PROXIES: { trusted: true } } }));
    expect(behindProxy.clientAddress).toBe("203.0.113.7");
  });

  it("is recorded in the access log", async () => {
    const records: Record<string, unknown>[] = [];
    const destination = { write: (line: string) => void records.push(JSON.parse(line)) };
    const app = createApp({
      routes,
      settings: { PROXIES: { trusted: ["loopback"] }, LOGGING: { level: "info", destination } },
    });
    await testClient(app).get("/who", { headers: { "x-forwarded-for": "203.0.113.7" } });
    expect(records.map((record) => record.client)).toEqual(["203.0.113.7"]);
  });
});

describe("the PROXIES setting", () => {
  it("refuses what is no address, range or name, with a message that names it", () => {
    expect(() => createApp({ routes, settings: { PROXIES: { trusted: ["10.0.0.0/33"] } } })).toThrow(
      new ValueError(
        'The PROXIES setting "trusted" has "10.0.0.0/33", which is no address, CIDR range (10.0.0.0/8, fd00::/8) or name (loopback, linklocal, uniquelocal).',
      ),
    );
    expect(() => createApp({ routes, settings: { PROXIES: { trusted: ["nginx"] } } })).toThrow(ValueError);
    expect(() => createApp({ routes, settings: { PROXIES: { trust: 1 } as never } })).toThrow(
      new ValueError('Unknown PROXIES setting "trust"; use trusted, headers.'),
    );
    expect(() =>
      createApp({ routes, settings: { PROXIES: { trusted: 1, headers: "x-real-ip" as never } } }),
    ).toThrow(
      new ValueError('The PROXIES setting "headers" must be "x-forwarded" or "forwarded", got "x-real-ip".'),
    );
  });

  it("takes a comma-separated string, as an environment variable gives it", () => {
    expect(
      clientOf({ trusted: "10.0.0.0/8, loopback" }, "127.0.0.1", { "x-forwarded-for": "203.0.113.7" })
        .address,
    ).toBe("203.0.113.7");
  });
});
