// docs/runtimes.md: `Bun.serve({ fetch: app.fetch })` and `Deno.serve(app.fetch)` work too. The
// fixture app served that way answers as it does through `serve()`, and an answer delivered in full
// is not taken for a client that left, Deno's abort of every request's signal included.
import { fileURLToPath } from "node:url";
import { endProcessGroups, waitFor } from "process-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runtimeCommand, type ServedApp, startOn } from "./runtime-process.ts";

const host = fileURLToPath(new URL("./bare-fetch-host.ts", import.meta.url));

afterAll(endProcessGroups);

describe.each(["bun", "deno"] as const)("app.fetch given to %s's own server", (runtime) => {
  let server: ServedApp;
  const url = (target: string) => `${server.origin}${target}`;
  const journal = async (): Promise<string[]> => (await fetch(url("/journal"))).json() as Promise<string[]>;

  beforeAll(async () => {
    server = await startOn(runtime, runtimeCommand(runtime, host, []), {}, /on http:\/\/127\.0\.0\.1:(\d+) /);
  });

  it("answers a declared route, a 404 and a 422 as serve() does", async () => {
    const found = await fetch(url("/declared/3"));
    expect([found.status, await found.text()]).toEqual([200, '{"id":3,"name":"Ada"}']);
    const missing = await fetch(url("/nowhere"));
    expect([missing.status, await missing.json()]).toEqual([404, { detail: "Not Found: /nowhere" }]);
    const invalid = await fetch(url("/declared/x"));
    expect(invalid.status).toBe(422);
  });

  it("leaves the client's address unknown, as the page says of a bare app.fetch", async () => {
    const response = await fetch(url("/client"));
    expect(await response.json()).toEqual({ scheme: "http", origin: server.origin });
  });

  it("does not take an answer delivered in full for a client that left", async () => {
    for (const label of ["b1", "b2"]) {
      const response = await fetch(url(`/watched?label=${label}`));
      expect(await response.json()).toEqual({ label });
    }
    const work = await fetch(url("/work?label=bw"));
    expect(await work.json()).toEqual({ work: "bw" });
    // Deno aborts request.signal just after each answer: more requests give it every chance to.
    for (let index = 0; index < 5; index++) await journal();
    const entries = await waitFor("the clean-up of bw", async () => {
      const current = await journal();
      return current.includes("bw: closed, client there") ? current : undefined;
    });
    expect(entries.filter((entry) => entry.includes("aborted") || entry.includes("client gone"))).toEqual([]);
  });
});
