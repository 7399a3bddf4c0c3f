// docs/runtimes.md, "From code": serve(app) resolves to the server, naming the runtime, the server
// that answers ("node:http", "Bun.serve" or "Deno.serve"; node:http for an app with WebSocket routes
// on Deno), the hostname and the free port chosen for port 0.
import { fileURLToPath } from "node:url";
import { endProcessGroups } from "process-support";
import { afterAll, expect, it } from "vitest";
import { runtimeCommand, startOn } from "./runtime-process.ts";

const host = fileURLToPath(new URL("./serve-host.ts", import.meta.url));
const listenHost = fileURLToPath(new URL("./listen-host.ts", import.meta.url));

afterAll(endProcessGroups);

it.each([
  ["node", "http", "node:http"],
  ["bun", "http", "Bun.serve"],
  ["deno", "http", "Deno.serve"],
  ["node", "websocket", "node:http"],
  ["bun", "websocket", "Bun.serve"],
  ["deno", "websocket", "node:http"],
] as const)(
  "on %s, an app with %s routes: resolves to the runtime, %s, the hostname and the port",
  async (runtime, kind, server) => {
    const served = await startOn(
      runtime,
      runtimeCommand(runtime, host, kind === "websocket" ? ["websocket"] : []),
      {},
      /served \{.*"port":(\d+)\}/,
    );
    const line = /served (\{.*\})/.exec(served.output.combined)![1]!;
    expect(JSON.parse(line)).toEqual({ runtime, server, hostname: "127.0.0.1", port: served.port });
    const live = await fetch(`${served.origin}/livez`);
    expect([live.status, await live.json()]).toEqual([200, { status: "pass" }]);
    served.child.kill("SIGTERM");
    expect(await served.exited).toBe(0);
  },
);

// "app.listen() itself starts Node's http server on every runtime".
it.each(["node", "bun", "deno"] as const)(
  "on %s, app.listen() serves the app on Node's http, and closes on SIGTERM",
  async (runtime) => {
    const served = await startOn(
      runtime,
      runtimeCommand(runtime, listenHost, []),
      {},
      /listening on http:\/\/127\.0\.0\.1:(\d+) /,
    );
    const hello = await fetch(`${served.origin}/hello?name=${runtime}`);
    expect([hello.status, await hello.text()]).toEqual([200, `Hello, ${runtime}!`]);
    const refused = await fetch(`${served.origin}/items/0`);
    expect([
      refused.status,
      ((await refused.json()) as { detail: { loc: unknown }[] }).detail[0]!.loc,
    ]).toEqual([422, ["path", "item_id"]]);
    served.child.kill("SIGTERM");
    expect(await served.exited).toBe(0);
  },
);
