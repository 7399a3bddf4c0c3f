export { defaultPubSub } from "./default-pubsub.ts";
export { type MemoryPubSubOptions, memoryPubSub } from "./memory.ts";
export { type PostgresPubSubOptions, postgresPubSub } from "./postgres.ts";
export type { PubSub, PubSubLog, Unsubscribe } from "./pubsub.ts";
export { type RedisPubSubOptions, redisPubSub } from "./redis.ts";
export { type WorkersPubSubOptions, workersPubSub } from "./workers.ts";
