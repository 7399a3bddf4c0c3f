// `unruffled serve` drains on SIGTERM on each runtime, as a load balancer needs it to: readiness
// turns 503 while the app still answers (with Connection: close), then it closes and exits 0.
// Before, Bun and Deno closed at once: readiness never failed, and requests still routed to the
// instance met a closed server.
import { fileURLToPath } from "node:url";
import { endProcessGroups } from "process-support";
import { afterAll, expect, it } from "vitest";
import { type RuntimeName, serveCommand, startOn } from "./runtime-process.ts";

const fixture = fileURLToPath(new URL("../cli/fixtures/draining-app.ts", import.meta.url));

afterAll(endProcessGroups);

it.each(["node", "bun", "deno"] as const satisfies readonly RuntimeName[])(
  "on %s, SIGTERM drains: readiness 503, other routes still answered with Connection: close",
  async (runtime) => {
    // The default export drains for 10 minutes: longer than the test looks.
    const served = await startOn(
      runtime,
      serveCommand(runtime, fixture),
      {},
      /on http:\/\/127\.0\.0\.1:(\d+) /,
    );
    expect((await fetch(`${served.origin}/readyz`)).status).toBe(200);
    served.child.kill("SIGTERM");
    await expect.poll(async () => (await fetch(`${served.origin}/readyz`)).status).toBe(503);
    const hello = await fetch(`${served.origin}/hello`);
    expect([hello.status, hello.headers.get("connection"), await hello.text()]).toEqual([
      200,
      "close",
      "Hello",
    ]);
    expect(served.child.exitCode).toBe(null);
  },
);

it.each(["node", "bun", "deno"] as const satisfies readonly RuntimeName[])(
  "on %s, exits 0 once the drain delay is over and the app closed",
  async (runtime) => {
    const served = await startOn(
      runtime,
      serveCommand(runtime, fixture, ["--export", "brief"]),
      {},
      /on http:\/\/127\.0\.0\.1:(\d+) /,
    );
    expect((await fetch(`${served.origin}/readyz`)).status).toBe(200);
    served.child.kill("SIGTERM");
    expect(await served.exited).toBe(0);
  },
);
