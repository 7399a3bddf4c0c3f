// Two instances of an app behind HAProxy (Debian's), each served by `unruffled serve` on Bun or on
// Deno, restarted one after the other under a steady load: no request is lost. HAProxy checks
// /readyz and retries nothing, so only the drain (readiness 503 while the instance still serves,
// then its close) keeps a request from reaching an instance that stopped. The enrollment service
// is checked the same way on Node (apps/enrollment/test/reliability/load-balancer-drain.test.ts).
import { mkdtemp, rm } from "node:fs/promises";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { endProcessGroups, freePort, startHaproxy, type TestHaproxy, waitFor } from "process-support";
import { afterAll, expect, it } from "vitest";
import { packageRoot, type RuntimeName, runtimeCommand, type ServedApp, startOn } from "./runtime-process.ts";

const fixture = fileURLToPath(new URL("../cli/fixtures/draining-app.ts", import.meta.url));
const cli = join(packageRoot, "bin", "unruffled.js");

afterAll(endProcessGroups);

/** GET /hello through the balancer on a keep-alive connection; what went wrong, if anything. */
function hello(agent: Agent, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const outgoing = request({ host: "127.0.0.1", port, path: "/hello", agent }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => {
        text += chunk;
      });
      response.on("end", () =>
        resolve(
          response.statusCode === 200 && text === "Hello" ? undefined : `${response.statusCode} ${text}`,
        ),
      );
      response.on("error", (error) => resolve(error.message));
    });
    outgoing.setTimeout(30_000, () => outgoing.destroy(new Error("no answer within 30 s")));
    outgoing.on("error", (error) => resolve(error.message));
    outgoing.end();
  });
}

it.each(["bun", "deno"] as const satisfies readonly RuntimeName[])(
  "two instances on %s behind HAProxy, restarted one after the other, lose no request",
  async (runtime) => {
    const folder = await mkdtemp(join(tmpdir(), "unruffled-haproxy-"));
    const ports: Record<string, number> = { a: await freePort(), b: await freePort() };
    const instances: Record<string, ServedApp> = {};
    const start = async (name: string) => {
      instances[name] = await startOn(
        runtime,
        runtimeCommand(runtime, cli, [
          "serve",
          fixture,
          "--export",
          "balanced",
          "--port",
          String(ports[name]),
        ]),
        {},
        /on http:\/\/127\.0\.0\.1:(\d+) /,
      );
    };
    let haproxy: TestHaproxy | undefined;
    try {
      await Promise.all([start("a"), start("b")]);
      const port = await freePort();
      haproxy = await startHaproxy({ port, folder, servers: ports });
      await haproxy.sees("a", "UP");
      await haproxy.sees("b", "UP");

      const agent = new Agent({ keepAlive: true, maxSockets: 4 });
      const failures: string[] = [];
      let ok = 0;
      let loading = true;
      const client = async () => {
        // Until both restarts are done, however long they take (a client that stopped after a
        // number of rounds could leave the test waiting for answers nobody asks for); a pause
        // between rounds keeps the load modest, so the restarts get the CPU.
        for (let round = 0; loading; round++) {
          if (round > 0) await new Promise((resolve) => setTimeout(resolve, 2));
          const failure = await hello(agent, port);
          if (failure === undefined) ok++;
          else failures.push(failure);
        }
      };
      const load = Promise.all([client(), client(), client(), client()]);
      const progress = (answers: number) =>
        waitFor(`${answers} answers`, () => (ok >= answers ? true : undefined), { timeoutMs: 90_000 });
      await progress(20);
      for (const name of ["a", "b"]) {
        const instance = instances[name]!;
        instance.child.kill("SIGTERM");
        // Readiness turns 503 at once: HAProxy takes the instance out while it still serves.
        await haproxy.sees(name, "DOWN");
        expect(await instance.exited).toBe(0);
        const served = ok;
        await start(name);
        await haproxy.sees(name, "UP");
        await progress(served + 20);
      }
      loading = false;
      await load;
      agent.destroy();
      expect(failures).toEqual([]);
      expect(haproxy.output.combined).not.toMatch(/ALERT/);
    } finally {
      haproxy?.child.kill("SIGKILL");
      for (const instance of Object.values(instances)) instance.child.kill("SIGKILL");
      await rm(folder, { recursive: true, force: true });
    }
  },
  120_000,
);
