// Two instances of an app behind HAProxy (Debian's), each served by `unruffled serve` on Bun or on
// Deno, restarted one after the other under a steady load: no request is lost. HAProxy checks
// /readyz and retries nothing, so only the drain (readiness 503 while the instance still serves,
// then its close) keeps a request from reaching an instance that stopped. The enrollment service
// is checked the same way on Node (apps/enrollment/test/reliability/load-balancer-drain.test.ts).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { Agent, request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { captureOutput, endProcessGroups, freePort, waitFor } from "process-support";
import { afterAll, expect, it } from "vitest";
import { packageRoot, type RuntimeName, runtimeCommand, type ServedApp, startOn } from "./runtime-process.ts";

const fixture = fileURLToPath(new URL("../cli/fixtures/draining-app.ts", import.meta.url));
const cli = join(packageRoot, "bin", "unruffled.js");

afterAll(endProcessGroups);

function haproxyConfig(port: number, socket: string, servers: Record<string, number>): string {
  return `global
  stats socket ${socket} level admin
defaults
  mode http
  timeout connect 5s
  timeout client 60s
  timeout server 60s
  retries 0
listen api
  bind 127.0.0.1:${port}
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
  default-server check inter 250 fall 2 rise 2
${Object.entries(servers)
  .map(([name, serverPort]) => `  server ${name} 127.0.0.1:${serverPort}`)
  .join("\n")}
`;
}

/** The status HAProxy gives a server now ("UP", "DOWN", …), from its stats socket. */
function serverStatus(socket: string, server: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const connection = connect(socket, () => connection.end("show stat\n"));
    let text = "";
    connection.setEncoding("utf8");
    connection.on("data", (chunk) => {
      text += chunk;
    });
    connection.on("error", () => resolve(undefined));
    connection.on("close", () => {
      const row = text.split("\n").find((line) => line.startsWith(`api,${server},`));
      resolve(row?.split(",")[17]);
    });
  });
}

const haproxySees = (socket: string, server: string, status: string) =>
  waitFor(
    `HAProxy to see ${server} ${status}`,
    async () => ((await serverStatus(socket, server)) === status ? true : undefined),
    { timeoutMs: 90_000, intervalMs: 50 },
  );

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
    let haproxy: ChildProcess | undefined;
    try {
      await Promise.all([start("a"), start("b")]);
      const port = await freePort();
      const socket = join(folder, "haproxy.sock");
      const config = join(folder, "haproxy.cfg");
      await writeFile(config, haproxyConfig(port, socket, ports));
      haproxy = spawn("haproxy", ["-f", config, "-db"], { stdio: ["ignore", "pipe", "pipe"] });
      const haproxyOutput = captureOutput(haproxy);
      await haproxySees(socket, "a", "UP");
      await haproxySees(socket, "b", "UP");

      const agent = new Agent({ keepAlive: true, maxSockets: 4 });
      const failures: string[] = [];
      let ok = 0;
      let loading = true;
      const client = async () => {
        // Bounded, whatever the machine's speed.
        for (let round = 0; loading && round < 20_000; round++) {
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
        await haproxySees(socket, name, "DOWN");
        expect(await instance.exited).toBe(0);
        const served = ok;
        await start(name);
        await haproxySees(socket, name, "UP");
        await progress(served + 20);
      }
      loading = false;
      await load;
      agent.destroy();
      expect(failures).toEqual([]);
      expect(haproxyOutput.combined).not.toMatch(/ALERT/);
    } finally {
      haproxy?.kill("SIGKILL");
      for (const instance of Object.values(instances)) instance.child.kill("SIGKILL");
      await rm(folder, { recursive: true, force: true });
    }
  },
  120_000,
);
