import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Modules that an ES import of node:http, node:util or node:fs/promises drags in through Node's lazy
// getters (src/node-builtins.ts says why): about 10 MB of resident memory that a server never uses.
const HEAVY_BUILTINS = [
  "NativeModule internal/deps/undici/undici",
  "NativeModule http2",
  "NativeModule zlib",
  "NativeModule worker_threads",
  "NativeModule internal/repl/history",
];

/** Runs `script` as an ES module in a fresh Node process (this one has loaded everything) and returns its stdout. */
function runFresh(script: string): Promise<string> {
  const root = fileURLToPath(new URL("../../../../", import.meta.url));
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--conditions=source", "--input-type=module", "-e", script],
      { cwd: root },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
  });
}

describe("memory footprint", () => {
  it("a server answering a validated request loads none of Node's heavy optional built-ins", async () => {
    const script = [
      'import { createApp } from "unruffled";',
      'import { JsonResponse } from "unruffled/http";',
      'import { endpoint, p, path } from "unruffled/route";',
      'import { z } from "zod";',
      "const list = endpoint({",
      "  params: { page: p.Query(z.int(), { default: 1, ge: 1 }) },",
      "  returns: JsonResponse,",
      "  handler: (_request, { page }) => new JsonResponse({ page }),",
      "});",
      'const app = createApp({ routes: [path("/list", { endpoint: list })] });',
      'const server = await app.listen({ port: 0, host: "127.0.0.1" });',
      // A raw socket: fetch and an ES import of node:net would load some of what is checked.
      'const socket = process.getBuiltinModule("node:net").connect(server.address().port, "127.0.0.1");',
      'let answer = "";',
      'socket.setEncoding("utf8").on("data", (chunk) => { answer += chunk; });',
      'socket.on("end", async () => {',
      "  await app.close();",
      `  const heavy = ${JSON.stringify(HEAVY_BUILTINS)};`,
      "  const loaded = heavy.filter((name) => process.moduleLoadList.includes(name));",
      '  console.log(JSON.stringify({ status: answer.split("\\r\\n")[0], body: answer.split("\\r\\n\\r\\n")[1], loaded }));',
      "});",
      'socket.end("GET /list?page=3 HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n");',
    ].join("\n");
    expect(JSON.parse(await runFresh(script))).toEqual({
      status: "HTTP/1.1 200 OK",
      body: '{"page":3}',
      loaded: [],
    });
  });

  it("the check sees them when they are loaded", async () => {
    const script = [
      'await import("node:http");',
      `const heavy = ${JSON.stringify(HEAVY_BUILTINS)};`,
      "console.log(JSON.stringify(heavy.filter((name) => process.moduleLoadList.includes(name))));",
    ].join("\n");
    expect(JSON.parse(await runFresh(script))).toEqual(HEAVY_BUILTINS);
  });

  // docs/websockets.md: an app without WebSocket routes does not load ws; docs/pubsub.md: pg and
  // redis are loaded on a broker's first use, so an app that uses neither loads neither.
  const optionalPeers = (body: string[]) =>
    [
      'import { registerHooks } from "node:module";',
      "const resolved = [];",
      "registerHooks({ resolve(specifier, context, next) { resolved.push(specifier); return next(specifier, context); } });",
      'const { createApp } = await import("unruffled");',
      'const { JsonResponse } = await import("unruffled/http");',
      'const { endpoint, path } = await import("unruffled/route");',
      'const { postgresPubSub, redisPubSub } = await import("unruffled/pubsub");',
      'const { websocket } = await import("unruffled/websocket");',
      'const { z } = await import("zod");',
      'const hello = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({ hello: "world" }) });',
      ...body,
      'const peers = ["ws", "pg", "redis"].filter((name) => resolved.includes(name));',
      "console.log(JSON.stringify({ answer, peers }));",
    ].join("\n");

  it("an app without WebSocket routes, on the default broker, loads none of ws, pg and redis", async () => {
    const script = optionalPeers([
      'const app = createApp({ routes: [path("/hello", { endpoint: hello })] });',
      // Made but never used: a broker loads its client on first use.
      'postgresPubSub({ connectionString: "postgres://127.0.0.1:1/none" });',
      'redisPubSub({ url: "redis://127.0.0.1:1" });',
      "const heard = [];",
      'await app.pubsub.subscribe("news", (message) => heard.push(message));',
      'await app.pubsub.publish("news", "hi");',
      "const server = await app.listen({ port: 0 });",
      "const response = await fetch(`http://127.0.0.1:${server.address().port}/hello`);",
      "const answer = [response.status, await response.text(), heard];",
      "await app.close();",
    ]);
    expect(JSON.parse(await runFresh(script))).toEqual({
      answer: [200, '{"hello":"world"}', ["hi"]],
      peers: [],
    });
  });

  it("the check sees ws once an app with a WebSocket route is served", async () => {
    const script = optionalPeers([
      'const noop = z.object({ type: z.literal("noop") });',
      "const live = websocket({ inbound: noop, outbound: noop, handler: async () => {} });",
      'const app = createApp({ routes: [path("/hello", { endpoint: hello }), path("/live", { websocket: live })] });',
      "const server = await app.listen({ port: 0 });",
      "const response = await fetch(`http://127.0.0.1:${server.address().port}/hello`);",
      "const answer = [response.status, await response.text()];",
      "await app.close();",
    ]);
    expect(JSON.parse(await runFresh(script))).toEqual({ answer: [200, '{"hello":"world"}'], peers: ["ws"] });
  });
});
