import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort, waitFor } from "process-support";

const run = promisify(execFile);

/** A redis-server of the test's own, in a temporary folder, on a free loopback port. */
export interface TestRedis {
  url: string;
  port: number;
  /** Stops the server (`shutdown nosave`) and resolves once it exited. */
  kill(): Promise<void>;
  /** Starts it again on the same port and resolves once it answers PING. */
  start(): Promise<void>;
  /** Stops it for good and removes its folder. */
  stop(): Promise<void>;
}

/**
 * Starts Debian's redis-server (`apt-get install -y redis-server`) without persistence; about a
 * tenth of a second. The process ends with the test process if a test forgets to stop it.
 *
 * @example const redis = await startRedis(); const pubsub = redisPubSub({ url: redis.url });
 */
export async function startRedis(): Promise<TestRedis> {
  const dir = await mkdtemp(join(tmpdir(), "unruffled-redis-"));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const killOnExit = () => child?.kill("SIGKILL");
  process.once("exit", killOnExit);
  const start = async () => {
    const started = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
      { stdio: "ignore" },
    );
    child = started;
    await waitFor(
      "redis-server to answer PING",
      async () => {
        if (started.exitCode !== null) throw new Error(`redis-server exited with code ${started.exitCode}`);
        const answer = await run("redis-cli", ["-p", String(port), "ping"]).catch(() => undefined);
        return answer?.stdout.trim() === "PONG" ? true : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 20 },
    );
  };
  const kill = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = once(running, "exit");
    await run("redis-cli", ["-p", String(port), "shutdown", "nosave"]).catch(() => running.kill("SIGKILL"));
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    start,
    async stop() {
      process.removeListener("exit", killOnExit);
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
