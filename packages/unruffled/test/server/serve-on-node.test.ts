// docs/runtimes.md, "From code": `serve(app)` on Node is `app.listen()`, after the onStartup hooks,
// and resolves to where it listens and its graceful close.
import { createApp, serve } from "unruffled";
import { PlainTextResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";
import { expect, it } from "vitest";

it("serves on node:http after the onStartup hooks, on the free port chosen for port 0, and closes with onClose", async () => {
  const events: string[] = [];
  const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("Hello") });
  const app = createApp({
    routes: [path("/hello", { endpoint: hello })],
    onStartup: () => void events.push("startup"),
    onClose: () => void events.push("close"),
  });
  const server = await serve(app, { port: 0, host: "127.0.0.1" });
  events.push("served");
  expect({ runtime: server.runtime, server: server.server, hostname: server.hostname }).toEqual({
    runtime: "node",
    server: "node:http",
    hostname: "127.0.0.1",
  });
  expect(server.port).toBe(app.address()!.port);
  expect(server.port).toBeGreaterThan(0);
  const response = await fetch(`http://127.0.0.1:${server.port}/hello`);
  expect([response.status, await response.text()]).toEqual([200, "Hello"]);
  await server.close({ timeout: 5_000 });
  expect(events).toEqual(["startup", "served", "close"]);
  await expect(fetch(`http://127.0.0.1:${server.port}/hello`)).rejects.toThrow("fetch failed");
});

// docs/deployment.md, "Behind a reverse proxy": keep the app on 127.0.0.1, "the default host".
it("audit-b: listens on 127.0.0.1 when no host is given, with app.listen() and serve()", async () => {
  const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("Hello") });
  const app = createApp({ routes: [path("/hello", { endpoint: hello })] });
  await app.listen({ port: 0 });
  expect([app.address()!.address, app.address()!.family]).toEqual(["127.0.0.1", "IPv4"]);
  await app.close();
  const served = await serve(app, { port: 0 });
  expect([served.hostname, app.address()!.address]).toEqual(["127.0.0.1", "127.0.0.1"]);
  await served.close();
});
