import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { request } from "node:http";
import { join } from "node:path";
import { captureOutput, endProcessGroup, endProcessGroups, freePort, spawnGroup } from "process-support";
import { afterAll, vi } from "vitest";

const mainScript = join(import.meta.dirname, "..", "..", "..", "src", "main.ts");
const servedBy = join(import.meta.dirname, "served-by.ts");

// The service and its workers end with the test file, also when a test failed or timed out first.
afterAll(endProcessGroups);
// A start may take up to 60 s on a busy machine: the tests and hooks that start one get more.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

/** The enrollment service as its own process (`node --conditions=source src/main.ts`). */
export interface ServiceProcess {
  child: ChildProcess;
  port: number;
  /** Everything it printed so far, standard output and error together. */
  output(): string;
  /** Resolves with the exit code once the process ended. */
  exited: Promise<number | null>;
  /** Sends a signal to the process (the primary, with workers). */
  signal(name: NodeJS.Signals): void;
}

/**
 * Starts the service on `port` (default: a free one) and waits until it answers (60 s: enough on a
 * busy machine).
 */
export async function startService(options: {
  databaseUrl: string;
  args?: string[];
  env?: Record<string, string>;
  port?: number;
}): Promise<ServiceProcess> {
  const port = options.port ?? (await freePort());
  const child = spawnGroup(
    process.execPath,
    ["--conditions=source", "--import", servedBy, mainScript, ...(options.args ?? [])],
    {
      env: {
        ...process.env,
        DATABASE_URL: options.databaseUrl,
        PORT: String(port),
        LOG_LEVEL: "warn",
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const output = captureOutput(child);
  const exited = once(child, "exit").then(([code]) => code as number | null);
  const service: ServiceProcess = {
    child,
    port,
    output: () => output.combined,
    exited,
    signal: (name) => void child.kill(name),
  };
  const deadline = performance.now() + 60_000;
  while ((await get(port, "/api/enroll/hello")) === undefined) {
    if (child.exitCode !== null || performance.now() > deadline) {
      await endProcessGroup(child);
      throw new Error(`the service did not start; it printed:\n${output.combined}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return service;
}

export interface Answer {
  status: number;
  body: string;
  servedBy: number;
}

/**
 * One request on a connection of its own (so that the cluster's primary hands each to a worker in
 * turn). Resolves `undefined` when the connection was refused or cut; rejects when no answer came
 * within `timeoutMs`, since a hang is a failure.
 */
export function send(
  port: number,
  method: string,
  path: string,
  body?: unknown,
  timeoutMs = 10_000,
): Promise<Answer | undefined> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const outgoing = request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent: false,
        headers: payload === undefined ? {} : { "content-type": "application/json" },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => {
          text += chunk;
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode!,
            body: text,
            servedBy: Number(response.headers["x-served-by"]),
          }),
        );
        response.on("error", () => resolve(undefined));
      },
    );
    const timer = setTimeout(() => {
      reject(new Error(`no answer to ${method} ${path} within ${timeoutMs} ms`));
      outgoing.destroy();
    }, timeoutMs);
    outgoing.on("close", () => clearTimeout(timer));
    outgoing.on("error", () => resolve(undefined));
    outgoing.end(payload);
  });
}

export function get(port: number, path: string): Promise<Answer | undefined> {
  return send(port, "GET", path, undefined, 5_000);
}
