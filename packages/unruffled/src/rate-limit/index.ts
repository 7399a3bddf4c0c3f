// Rate limits declared once: policies on routes, groups or the app; one algorithm in every store.
export { clientAddressKey, defaultKey, principalIdentity } from "./client-key.ts";
export type { Check, Decision } from "./gcra.ts";
export { QUOTA_EXCEEDED, RATELIMIT_DRAFT } from "./headers.ts";
export { MemoryStore, memoryStore } from "./memory-store.ts";
export type { RateLimitKey, RateLimitOptions, RateLimitPolicy } from "./policy.ts";
export { rateLimit } from "./policy.ts";
export { type PostgresStore, postgresStore } from "./postgres-store.ts";
export { redisStore } from "./redis-store.ts";
export type { RateLimitSettings } from "./settings.ts";
export type { Decisions, RateLimitStore } from "./store.ts";
export { RateLimitStoreUnavailableError, TooManyRequestsError } from "./too-many-requests.ts";
export { answerWorkerRateLimits, workerStore } from "./worker-store.ts";
