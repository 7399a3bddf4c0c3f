import type { Worker } from "node:cluster";

/** The key of a PubSub message between a worker and the cluster primary: `{ [key]: [topic, message] }`. */
export const RELAY_KEY = "unruffled:pubsub";

export type RelayEnvelope = { [RELAY_KEY]: [topic: string, message: string] };

export function isRelayEnvelope(value: unknown): value is RelayEnvelope {
  if (typeof value !== "object" || value === null) return false;
  const pair = (value as Record<string, unknown>)[RELAY_KEY];
  return Array.isArray(pair) && typeof pair[0] === "string" && typeof pair[1] === "string";
}

/**
 * In the cluster primary: passes a worker's published message to every live worker, the publisher
 * too, in the order it came. One IPC channel per worker keeps each publisher's order; returns
 * whether `message` was one of these.
 */
export function relayToWorkers(workers: Iterable<Worker>, message: unknown): boolean {
  if (!isRelayEnvelope(message)) return false;
  for (const worker of workers) {
    // A worker that is exiting has no subscribers left to tell.
    if (worker.isConnected()) worker.send(message);
  }
  return true;
}

/** True in a worker that `runWorkers` forked: its primary relays PubSub messages. */
export function inRelayedWorker(): boolean {
  return process.env.UNRUFFLED_WORKER !== undefined && typeof process.send === "function";
}
