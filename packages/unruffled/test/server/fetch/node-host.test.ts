// app.fetch behind a fetch-based host on Node that passes Node's request and response beside the web
// one (@hono/node-server's bindings): the request is read from Node's message, and an answer ready
// at once is handed over without a promise. Anyone else is given the promise a fetch handler returns.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";
import { afterEach, describe, expect, it } from "vitest";

const whoAsks = endpoint({
  returns: JsonResponse,
  handler: (request) =>
    new JsonResponse({
      agent: request.headers["user-agent"] ?? null,
      address: request.client.address ?? null,
    }),
});

const app = createApp({
  settings: { LOGGING: { access_log: false } },
  routes: [path("/who", { endpoint: whoAsks })],
});

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A minimal host: the web request it hands over carries no headers; Node's message does. */
async function host(answered: (result: Response | Promise<Response>) => void): Promise<string> {
  await app.startup();
  server = createServer(async (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const result = app.fetch(new Request(`http://host${incoming.url}`), { incoming, outgoing });
    answered(result);
    const response = await result;
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

describe("app.fetch behind a Node host", () => {
  it("reads headers and the client's address from Node's request, and answers without a promise", async () => {
    const results: (Response | Promise<Response>)[] = [];
    const origin = await host((result) => results.push(result));
    for (const agent of ["probe/1", "probe/1b"]) {
      const response = await fetch(`${origin}/who`, { headers: { "user-agent": agent } });
      expect(await response.json()).toEqual({ agent, address: "127.0.0.1" });
    }
    // The first request of a fetch handler waits for the app's startup; the next is answered at once.
    expect(results).toHaveLength(2);
    expect(results[1]).toBeInstanceOf(Response);
  });

  it("gives a promise to a caller that passes no Node request", async () => {
    await app.startup();
    const result = app.fetch(new Request("http://host/who", { headers: { "user-agent": "probe/2" } }));
    expect(result).toBeInstanceOf(Promise);
    expect(await (await result).json()).toEqual({ agent: "probe/2", address: null });
  });
});
