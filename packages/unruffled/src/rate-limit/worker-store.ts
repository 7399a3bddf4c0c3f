import type { Cluster } from "node:cluster";
import { inRelayedWorker } from "../pubsub/workers-relay.ts";
import type { Check } from "./gcra.ts";
import { MemoryStore } from "./memory-store.ts";
import { type Decisions, keptDecisions, type RateLimitStore } from "./store.ts";

const MESSAGE = "unruffled:rate-limit";

interface CheckMessage {
  kind: typeof MESSAGE;
  id: number;
  checks: readonly Check[];
}

interface DecisionMessage {
  kind: typeof MESSAGE;
  id: number;
  decisions: Decisions;
}

/**
 * State held by the cluster primary of `runWorkers()`: the workers of one machine ask it over IPC,
 * one message each way per request, so together they admit exactly the limit. In any other process
 * (one process, or one forked by something else than `runWorkers()`) it is a memory store.
 *
 * @example createApp({ routes, rateLimitStore: workerStore() }) // inside runWorkers({ workers: 4, start })
 */
export function workerStore(): RateLimitStore {
  // Only runWorkers' primary answers: a process forked otherwise (a process manager, a test runner)
  // has an IPC channel too, on which no answer would ever come.
  if (!inRelayedWorker()) return new MemoryStore(Date.now);
  return new WorkerStore();
}

class WorkerStore implements RateLimitStore {
  readonly kind = "rate-limit-store";
  private nextId = 0;
  private readonly waiting = new Map<
    number,
    { resolve(decisions: Decisions): void; reject(error: Error): void }
  >();
  private listening = false;

  consume(checks: readonly Check[]): Promise<Decisions> {
    this.listen();
    const id = ++this.nextId;
    return new Promise<Decisions>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      const message: CheckMessage = { kind: MESSAGE, id, checks };
      process.send!(message, undefined, undefined, (error: Error | null) => {
        if (error === null) return;
        this.waiting.delete(id);
        reject(error);
      });
    });
  }

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    process.on("message", this.onMessage);
  }

  private readonly onMessage = (message: unknown): void => {
    const answer = message as Partial<DecisionMessage> | null;
    if (answer?.kind !== MESSAGE || answer.id === undefined) return;
    const waiter = this.waiting.get(answer.id);
    if (waiter === undefined) return;
    this.waiting.delete(answer.id);
    if (Array.isArray(answer.decisions)) waiter.resolve(answer.decisions);
    else waiter.reject(new Error("The cluster primary does not answer rate-limit checks"));
  };

  close(): void {
    if (this.listening) process.off("message", this.onMessage);
    this.listening = false;
    for (const waiter of this.waiting.values()) waiter.reject(new Error("The rate-limit store was closed"));
    this.waiting.clear();
  }
}

/**
 * In the cluster primary: answers the workers' checks from one memory store. `runWorkers()` calls
 * it; an app that runs its own cluster calls it once in its primary.
 *
 * @example if (cluster.isPrimary) answerWorkerRateLimits(cluster);
 */
export function answerWorkerRateLimits(cluster: Cluster, clock: () => number = Date.now): void {
  const store = new MemoryStore(clock);
  cluster.on("message", (worker, message: Partial<CheckMessage> | null) => {
    if (message?.kind !== MESSAGE || message.id === undefined || !Array.isArray(message.checks)) return;
    const answer: DecisionMessage = {
      kind: MESSAGE,
      id: message.id,
      // Sent later when the channel is busy: a copy, since the store reuses its answer.
      decisions: keptDecisions(store.consume(message.checks)),
    };
    // A worker that is gone has no one waiting for the answer.
    if (worker.isConnected()) worker.send(answer);
  });
}
