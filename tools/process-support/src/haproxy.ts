import { type ChildProcess, spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import { type ChildOutput, captureOutput } from "./child-output.ts";
import { waitFor } from "./wait-for.ts";

/** Debian's HAProxy, started by a test in front of the servers it names. */
export interface TestHaproxy {
  child: ChildProcess;
  output: ChildOutput;
  /** Resolves once HAProxy gives `server` the status `status` ("UP", "DOWN", …). */
  sees(server: string, status: string): Promise<true>;
}

/** How the balancer reaches its servers. */
export interface HaproxyOptions {
  /** The port it listens on (loopback). */
  port: number;
  /** A folder of the test's own, for its configuration and stats socket. */
  folder: string;
  /** The servers, by name: their loopback ports. */
  servers: Record<string, number>;
  /** Add `X-Forwarded-For` (default false). */
  forwardFor?: boolean;
  /** The address it connects to the servers from (default the system's choice). */
  source?: string;
}

/**
 * HAProxy in front of the servers, checking `/readyz` every 250 ms (two failures: down, two
 * successes: up), and retrying nothing: like a Kubernetes Service, a request sent to an instance
 * that stopped accepting fails. Only the servers' drain avoids that.
 *
 * @example const haproxy = await startHaproxy({ port, folder, servers: { a: 8001, b: 8002 } }); await haproxy.sees("a", "UP");
 */
export async function startHaproxy(options: HaproxyOptions): Promise<TestHaproxy> {
  const socket = join(options.folder, "haproxy.sock");
  const config = join(options.folder, "haproxy.cfg");
  const servers = Object.entries(options.servers)
    .map(([name, port]) => `  server ${name} 127.0.0.1:${port}`)
    .join("\n");
  await writeFile(
    config,
    `global
  stats socket ${socket} level admin
defaults
  mode http
  timeout connect 5s
  timeout client 60s
  timeout server 60s
  retries 0
${options.forwardFor === true ? "  option forwardfor\n" : ""}listen api
  bind 127.0.0.1:${options.port}
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
  default-server check inter 250 fall 2 rise 2${options.source === undefined ? "" : ` source ${options.source}`}
${servers}
`,
  );
  const child = spawn("haproxy", ["-f", config, "-db"], { stdio: ["ignore", "pipe", "pipe"] });
  return {
    child,
    output: captureOutput(child),
    sees: (server, status) =>
      waitFor(
        `HAProxy to see ${server} ${status}`,
        async () => ((await serverStatus(socket, server)) === status ? true : undefined),
        { timeoutMs: 90_000, intervalMs: 50 },
      ),
  };
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
      // CSV: proxy name, server name, … status is the 18th column.
      const row = text.split("\n").find((line) => line.startsWith(`api,${server},`));
      resolve(row?.split(",")[17]);
    });
  });
}
