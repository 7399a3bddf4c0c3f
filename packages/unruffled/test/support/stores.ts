import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort, waitFor } from "process-support";
import { createClient } from "redis";
import { afterAll, beforeAll } from "vitest";

/** A redis-server of the test's own on a free loopback port, which the test may stop and start again. */
export interface TestRedis {
  url: string;
  port: number;
  /** Ends the server (SIGKILL) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port, and waits until it answers. */
  start(): Promise<void>;
  /** Stops it for good and removes its folder. */
  close(): Promise<void>;
}

export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "unruffled-redis-"));
  let child: ChildProcess | undefined;
  const url = `redis://127.0.0.1:${port}`;
  const start = async () => {
    child = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
      { stdio: "ignore" },
    );
    await waitFor("redis-server to answer PING", () => ping(url), { timeoutMs: 30_000 });
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = once(running, "exit");
    running.kill("SIGKILL");
    await exited;
  };
  process.once("exit", () => child?.kill("SIGKILL"));
  await start();
  return {
    url,
    port,
    start,
    stop,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function ping(url: string): Promise<true | undefined> {
  const client = createClient({ url, socket: { reconnectStrategy: false } });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch {
    return undefined;
  } finally {
    if (client.isOpen) await client.close();
  }
}

/** A new database in the run's PostgreSQL server (vitest's global setup), dropped by `drop()`. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const server = process.env.TEST_DATABASE_URL;
  if (server === undefined)
    throw new Error("TEST_DATABASE_URL is not set: the global setup starts PostgreSQL");
  const name = `rate_limit_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await onServer(server, `create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => onServer(server, `drop database if exists ${name} with (force)`),
  };
}

/**
 * A new database for one test file, with a client connected to it, made before its tests and
 * dropped after them: `url` and `client` are read in the tests.
 */
export function usePostgresDatabase(): { readonly url: string; readonly client: pg.Client } {
  let database: { url: string; drop(): Promise<void> } | undefined;
  let client: pg.Client | undefined;
  beforeAll(async () => {
    database = await createPostgresDatabase();
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });
  return {
    get url() {
      return database!.url;
    },
    get client() {
      return client!;
    },
  };
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** One GET on a fresh connection (the cluster primary spreads connections): its status and x-pid. */
export function getFresh(port: number, path: string): Promise<{ status: number; pid: number }> {
  return new Promise((resolve, reject) => {
    const request = get({ host: "127.0.0.1", port, path, agent: false, timeout: 30_000 }, (response) => {
      response.resume();
      response.on("end", () =>
        resolve({ status: response.statusCode!, pid: Number(response.headers["x-pid"]) }),
      );
    });
    request.on("timeout", () => request.destroy(new Error("timed out")));
    request.on("error", reject);
  });
}
