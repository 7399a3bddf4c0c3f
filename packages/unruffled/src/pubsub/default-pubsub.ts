import { memoryPubSub } from "./memory.ts";
import type { PubSub, PubSubLog } from "./pubsub.ts";
import { workersPubSub } from "./workers.ts";
import { inRelayedWorker } from "./workers-relay.ts";

/**
 * The broker an app uses when it is given none: across the workers under `unruffled serve
 * --workers N` (or `runWorkers`), else within the process. Create it in a module of its own when
 * handlers publish, and pass it to `createApp({ pubsub })`.
 *
 * @example export const pubsub = defaultPubSub(); // then createApp({ routes, pubsub })
 */
export function defaultPubSub(options: { log?: PubSubLog } = {}): PubSub {
  return inRelayedWorker() ? workersPubSub(options) : memoryPubSub(options);
}
