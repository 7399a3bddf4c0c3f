export type { Logger } from "pino";
export type { AppOptions } from "./app/app.ts";
export { App, createApp } from "./app/app.ts";
export type { LimitSettings, ResponseSettings, Settings } from "./app/settings.ts";
export { DEFAULT_LIMITS } from "./app/settings.ts";
export type { StartupHook } from "./app/startup.ts";
export { StartupError } from "./app/startup.ts";
export { generateClient } from "./client-generator/index.ts";
export type { ValidationIssue } from "./errors.ts";
export {
  ForbiddenError,
  HttpError,
  MalformedBodyError,
  MethodNotAllowedError,
  NoMatchFound,
  NotFoundError,
  PayloadTooLargeError,
  RequestTimeoutError,
  RequestValidationError,
  ResponseValidationError,
  TypeHintRequired,
  UnauthorizedError,
  UnruffledError,
  UnsupportedMediaTypeError,
  ValueError,
} from "./errors.ts";
export type {
  ErrorClass,
  ExceptionHandler,
  ExceptionHandlerFunction,
} from "./handling/exception-handlers.ts";
export { exceptionHandler } from "./handling/exception-handlers.ts";
export type {
  HealthCheck,
  HealthOptions,
  HealthPaths,
  TimedHealthCheck,
} from "./health/health-options.ts";
export {
  DEFAULT_CHECK_TIMEOUT_MS,
  DEFAULT_DRAIN_DELAY_MS,
  DEFAULT_HEALTH_PATHS,
} from "./health/health-options.ts";
export type { CheckResult, ReadinessReport } from "./health/readiness-checks.ts";
export type { Middleware, MiddlewareRoute, Next, UpgradeGuard } from "./http/middleware.ts";
export type { ErrorLogger, LoggingSettings } from "./logging/logger.ts";
export { createLogger, DEFAULT_LOG_LEVEL } from "./logging/logger.ts";
export type { CompressionOptions } from "./middleware/compression.ts";
export { compression } from "./middleware/compression.ts";
export type { CorsOptions, CorsOrigins } from "./middleware/cors.ts";
export { cors } from "./middleware/cors.ts";
export { httpsRedirect } from "./middleware/https-redirect.ts";
export type { TrustedHostOptions } from "./middleware/trusted-host.ts";
export { trustedHost } from "./middleware/trusted-host.ts";
export {
  HttpErrorSchema,
  HttpValidationErrorSchema,
  ValidationIssueSchema,
} from "./openapi/operation/error-schemas.ts";
export type { OpenApiSettings } from "./openapi/settings.ts";
export type { ProblemExtensions, ProblemType } from "./problem/http-problem.ts";
export { HttpProblem, problemType } from "./problem/http-problem.ts";
export type { ErrorSettings, ProblemDetails } from "./problem/problem-details.ts";
export { PROBLEM_JSON, problemResponse } from "./problem/problem-details.ts";
export {
  ProblemDetailsSchema,
  ProblemIssueSchema,
  ValidationProblemSchema,
} from "./problem/problem-schemas.ts";
export type { DependencyOverride } from "./route/declare/overrides.ts";
export type { CloseOptions, ListenOptions } from "./server/node/node-adapter.ts";
export { DEFAULT_CLOSE_TIMEOUT_MS } from "./server/node/node-adapter.ts";
export type { Runtime } from "./server/runtime.ts";
export type { RuntimeServer } from "./server/runtime-server.ts";
export { serve } from "./server/runtime-server.ts";
export type { ShutdownSignalOptions } from "./server/shutdown-signals.ts";
export { handleShutdownSignals } from "./server/shutdown-signals.ts";
export type { WorkerOptions } from "./server/workers.ts";
export { runWorkers } from "./server/workers.ts";
