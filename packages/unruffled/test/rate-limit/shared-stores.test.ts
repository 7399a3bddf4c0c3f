import { once } from "node:events";
import { join } from "node:path";
import { captureOutput, endProcessGroups, freePort, spawnGroup, waitFor } from "process-support";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createPostgresDatabase, getFresh, startRedis, type TestRedis } from "../support/stores.ts";

const fixture = join(import.meta.dirname, "..", "support", "rate-limit-fixture.ts");
// A process start gets 60 s on a busy 2-core machine.
const START_MS = 60_000;
vi.setConfig({ testTimeout: 180_000 });
afterEach(endProcessGroups);

/** Starts the fixture with a store and a number of workers; resolves once every worker answers. */
async function startFixture(store: string, workers: number, storeUrl = "", { ipc = false } = {}) {
  const port = await freePort();
  const child = spawnGroup(process.execPath, ["--conditions=source", fixture], {
    env: {
      ...process.env,
      RATE_STORE: store,
      WORKERS: String(workers),
      PORT: String(port),
      STORE_URL: storeUrl,
    },
    // An IPC channel, as a process manager or a test runner that forks gives its children.
    stdio: ipc ? ["ignore", "pipe", "pipe", "ipc"] : ["ignore", "pipe", "pipe"],
  });
  const output = captureOutput(child);
  const exited = once(child, "exit");
  const seen = new Set<number>();
  await waitFor(
    `answers from ${workers} processes (output so far: ${output.combined})`,
    async () => {
      if (child.exitCode !== null) throw new Error(`the fixture exited: ${output.combined}`);
      const answer = await getFresh(port, "/pid").catch(() => undefined);
      if (answer !== undefined) seen.add(answer.pid);
      return seen.size === workers ? true : undefined;
    },
    { timeoutMs: START_MS },
  );
  return {
    port,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** `count` concurrent requests to /limited, spread over the ports: the statuses and the processes that answered. */
async function burst(ports: readonly number[], count: number) {
  const answers = await Promise.all(
    Array.from({ length: count }, (_, index) => getFresh(ports[index % ports.length]!, "/limited")),
  );
  return {
    admitted: answers.filter((answer) => answer.status === 200).length,
    refused: answers.filter((answer) => answer.status === 429).length,
    processes: new Set(answers.map((answer) => answer.pid)).size,
  };
}

describe("a limit shared by processes (20 per hour, 10 × 20 concurrent requests)", () => {
  it("memory store: 2 workers count alone and admit 2 × the limit", async () => {
    const cluster = await startFixture("memory", 2);
    expect(await burst([cluster.port], 200)).toEqual({ admitted: 40, refused: 160, processes: 2 });
    await cluster.stop();
  });

  it("worker store: 2 workers ask the cluster primary and admit exactly the limit", async () => {
    const cluster = await startFixture("worker", 2);
    expect(await burst([cluster.port], 200)).toEqual({ admitted: 20, refused: 180, processes: 2 });
    await cluster.stop();
  });

  it("worker store: one process that runWorkers did not fork, even with an IPC channel, counts alone, exactly", async () => {
    const single = await startFixture("worker", 1, "", { ipc: true });
    expect(await burst([single.port], 200)).toEqual({ admitted: 20, refused: 180, processes: 1 });
    await single.stop();
  });

  describe("Redis store", () => {
    let redis: TestRedis;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(() => redis.close());

    it("2 instances sharing one Redis admit exactly the limit", async () => {
      const first = await startFixture("redis", 1, redis.url);
      const second = await startFixture("redis", 1, redis.url);
      expect(await burst([first.port, second.port], 200)).toEqual({
        admitted: 20,
        refused: 180,
        processes: 2,
      });
      await Promise.all([first.stop(), second.stop()]);
    });
  });

  describe("PostgreSQL store", () => {
    let database: { url: string; drop(): Promise<void> };
    beforeAll(async () => {
      database = await createPostgresDatabase();
    });
    afterAll(() => database.drop());

    it("2 instances sharing one database admit exactly the limit", async () => {
      const first = await startFixture("postgres", 1, database.url);
      const second = await startFixture("postgres", 1, database.url);
      expect(await burst([first.port, second.port], 200)).toEqual({
        admitted: 20,
        refused: 180,
        processes: 2,
      });
      await Promise.all([first.stop(), second.stop()]);
    });
  });
});
