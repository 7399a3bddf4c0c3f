// docs/runtimes.md's example: `serve(app)` from code, the same file on the three runtimes.
import { fileURLToPath } from "node:url";
import { endProcessGroups } from "process-support";
import { afterAll, expect, it } from "vitest";
import { runtimeCommand, startOn } from "./runtime-process.ts";

const example = fileURLToPath(new URL("../../../../docs/examples/runtimes/server.ts", import.meta.url));

afterAll(endProcessGroups);

it.each(["node", "bun", "deno"] as const)(
  "serve(app) serves on %s's own server, and closes on SIGTERM",
  async (runtime) => {
    const served = await startOn(
      runtime,
      runtimeCommand(runtime, example, []),
      { PORT: "0" },
      new RegExp(`Serving on http://127\\.0\\.0\\.1:(\\d+) \\(${runtime}\\)`),
    );
    const response = await fetch(`${served.origin}/hello?name=${runtime}`);
    expect([response.status, await response.text()]).toEqual([200, `Hello, ${runtime}!`]);
    served.child.kill("SIGTERM");
    expect(await served.exited).toBe(0);
  },
);
