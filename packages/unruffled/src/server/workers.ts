import type { Cluster, Worker } from "node:cluster";
import { inRelayedWorker, relayToWorkers } from "../pubsub/workers-relay.ts";
import { answerWorkerRateLimits } from "../rate-limit/worker-store.ts";

export interface WorkerOptions {
  /** How many processes serve; 1 (the default) runs `start` in this process, with no cluster. */
  workers?: number;
  /**
   * Starts one server in the current process: opens what it needs, listens, and installs its own
   * graceful shutdown (`handleShutdownSignals`). Workers share the port they listen on.
   */
  start: () => unknown;
  /** How long the primary waits for its workers to exit after SIGTERM/SIGINT before killing them (default 15 s). */
  shutdownTimeout?: number;
  /** Delay before replacing a crashed worker; it doubles while replacements keep crashing (default 100 ms). */
  restartDelay?: number;
  /** The longest delay between replacements (default 10 s). */
  maxRestartDelay?: number;
  /** A worker that ran this long before crashing counts as healthy: the delay starts over (default 10 s). */
  stableAfter?: number;
  /** Where the primary tells what its workers do (default the console). */
  log?: { info(message: string): void; error(message: string): void };
  /** How the primary ends once its workers are gone (default `process.exit`). */
  exit?: (code: number) => void;
}

/**
 * The message a worker sends its primary once it listens on a server `node:cluster` does not see
 * (`Bun.serve`): the cluster's own `listening` event comes only from Node's `net` servers.
 */
export const LISTENING_MESSAGE = "unruffled:listening";

/**
 * Tells the cluster primary of `runWorkers()` that this worker listens, where its server is not one
 * the cluster sees; nothing outside such a worker.
 *
 * @example const server = Bun.serve({ reusePort: true, … }); tellListening();
 */
export function tellListening(): void {
  if (inRelayedWorker()) process.send!({ [LISTENING_MESSAGE]: true });
}

const consoleLog = {
  info: (message: string) => console.log(message),
  error: (message: string) => console.error(message),
};

/**
 * Runs `start` in `workers` processes (`node:cluster`) that share one port. The first worker starts
 * alone, the others once it listens: a start that fails (a database out of reach, a port taken, an
 * `onStartup` hook that throws) is told once, in the worker's own line, and the primary ends the
 * other workers and exits with the worker's code (1 if it had none), as one process would. Once
 * every worker has listened, the primary replaces a worker that dies, waiting longer after each crash
 * in a row so that a worker failing again and again does not spin; on SIGTERM or SIGINT it passes
 * SIGTERM to every worker, waits for them to finish their requests, and exits 0 when they all exited
 * cleanly. It also relays the workers' PubSub messages (`app.pubsub`) from each worker to all. In a
 * worker, or with one worker, it simply calls `start`.
 *
 * Node's primary hands each connection to a worker in turn and waits for the worker to take it: a
 * connection handed over in the instant a worker crashes is never answered nor closed (a limit of
 * `node:cluster`), so clients should bound their requests with a timeout.
 *
 * @example
 * await runWorkers({ workers: 4, start: async () => {
 *   const app = createApp({ routes }); await app.listen({ port: 8000 });
 *   handleShutdownSignals(() => app.close({ timeout: 10_000 }));
 * } });
 */
export async function runWorkers(options: WorkerOptions): Promise<void> {
  const count = options.workers ?? 1;
  if (!Number.isInteger(count) || count < 1) {
    throw new TypeError(`The number of workers must be a whole number of at least 1, got ${count}`);
  }
  if (count === 1) {
    await options.start();
    return;
  }
  // Taken here rather than at import: an app that never listens (fetch(Request), the test client) does
  // without node:cluster, which Node's listen() loads anyway.
  const { default: cluster } = await import("node:cluster");
  if (cluster.isWorker) {
    await options.start();
    return;
  }
  superviseWorkers(cluster, count, options);
}

function superviseWorkers(cluster: Cluster, count: number, options: WorkerOptions): void {
  const log = options.log ?? consoleLog;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const restartDelay = options.restartDelay ?? 100;
  const maxRestartDelay = options.maxRestartDelay ?? 10_000;
  const stableAfter = options.stableAfter ?? 10_000;
  const live = new Set<Worker>();
  const pendingRestarts = new Set<NodeJS.Timeout>();
  // Crashes in a row, per worker slot, to grow the delay of its next replacement.
  const crashesInARow: number[] = Array.from({ length: count }, () => 0);
  let stopping = false;
  let uncleanExits = 0;
  // Until every slot's worker has listened once, a worker that exits without having listened fails the start.
  const slotsListened = new Set<number>();
  let failedStartCode: number | undefined;

  const fork = (slot: number) => {
    const worker = cluster.fork({ UNRUFFLED_WORKER: String(slot + 1) });
    const startedAt = performance.now();
    let listened = false;
    live.add(worker);
    const name = `worker ${slot + 1} (pid ${worker.process.pid})`;
    const onListening = () => {
      if (listened) return;
      listened = true;
      log.info(`${name} started`);
      if (slotsListened.has(slot)) return;
      slotsListened.add(slot);
      // The first worker proved that the app starts: the others start together.
      if (slot === 0 && !stopping) for (let next = 1; next < count; next++) fork(next);
    };
    // Node's servers through the cluster's own event; Bun.serve through the worker's message.
    worker.once("listening", onListening);
    worker.on("message", (message: unknown) => {
      if (typeof message === "object" && message !== null && LISTENING_MESSAGE in message) onListening();
    });
    worker.once("exit", (code, signal) => {
      live.delete(worker);
      const how = signal ? `by ${signal}` : `with code ${code}`;
      if (failedStartCode !== undefined) {
        if (live.size === 0) exit(failedStartCode);
        return;
      }
      if (!listened && slotsListened.size < count && !stopping) {
        // Its own line told why; the others would only repeat it, or serve a port the app cannot.
        failedStartCode = code || 1;
        stopAll();
        if (live.size === 0) exit(failedStartCode);
        return;
      }
      if (stopping) {
        // A worker still starting up has no handler yet: SIGTERM ends it, as was asked.
        if (code !== 0 && signal !== "SIGTERM") uncleanExits++;
        log.info(`${name} exited ${how}`);
        if (live.size === 0) exit(uncleanExits === 0 ? 0 : 1);
        return;
      }
      crashesInARow[slot] = performance.now() - startedAt >= stableAfter ? 1 : crashesInARow[slot]! + 1;
      const delay = Math.min(maxRestartDelay, restartDelay * 2 ** (crashesInARow[slot]! - 1));
      log.error(`${name} exited ${how}; replacing it in ${delay} ms`);
      const timer = setTimeout(() => {
        pendingRestarts.delete(timer);
        fork(slot);
      }, delay);
      pendingRestarts.add(timer);
    });
  };

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const timer of pendingRestarts) clearTimeout(timer);
    pendingRestarts.clear();
    log.info(`${signal}: stopping ${live.size} workers`);
    if (live.size === 0) {
      exit(0);
      return;
    }
    stopAll();
  };

  // SIGTERM to every worker, and SIGKILL to those still running after the shutdown timeout.
  const stopAll = () => {
    for (const worker of live) worker.process.kill("SIGTERM");
    setTimeout(() => {
      for (const worker of live) {
        log.error(
          `worker ${worker.process.pid} still running after ${options.shutdownTimeout ?? 15_000} ms; killing it`,
        );
        worker.process.kill("SIGKILL");
      }
    }, options.shutdownTimeout ?? 15_000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  // The workers' PubSub (workersPubSub): what one publishes, the primary passes to all.
  cluster.on("message", (_worker, message) => relayToWorkers(live, message));
  // Workers that share rate limits (`workerStore()`) ask the primary.
  answerWorkerRateLimits(cluster);

  fork(0);
}
