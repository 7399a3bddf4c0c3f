/**
 * The run-time half of a generated client (`unruffled client app.ts --out client.ts`): fetch-based,
 * without Zod or any server code, for browsers and Node alike.
 */
export type { CallOptions, ClientOptions, HeadersInput } from "./client-options.ts";
export { bindOperations, callOperation } from "./create-client.ts";
export type { OperationPlan, ParamLocation, ParamPlan } from "./operation-plan.ts";
export {
  type RateLimitedAnswer,
  type RateLimitState,
  rateLimitStates,
  retryAfterSeconds,
} from "./rate-limited.ts";
export type {
  Answer,
  DecodeFailure,
  EventsAnswer,
  NetworkFailure,
  UndocumentedStatus,
  Unexpected,
} from "./results.ts";
export {
  EventDecodeError,
  EventStreamError,
  readServerEvents,
  type ServerEvent,
  type ServerEvents,
} from "./server-events.ts";
export {
  type ClientSocket,
  connectSocket,
  type SocketClose,
  SocketMessageError,
  type SocketOptions,
  type SocketPlan,
  type SocketResult,
} from "./websocket.ts";
