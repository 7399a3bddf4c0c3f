export type { Logger } from "pino";
export type { AppOptions } from "./app/app.ts";
export { App, createApp } from "./app/app.ts";
export type { CompressionOptions } from "./app/compression.ts";
export { compression } from "./app/compression.ts";
export type { CorsOptions, CorsOrigins } from "./app/cors.ts";
export { cors } from "./app/cors.ts";
export type { ErrorClass, ExceptionHandler, ExceptionHandlerFunction } from "./app/exception-handlers.ts";
export { exceptionHandler } from "./app/exception-handlers.ts";
export type { ErrorLogger, LoggingSettings } from "./app/logging.ts";
export { createLogger, DEFAULT_LOG_LEVEL } from "./app/logging.ts";
export type { CloseOptions, ListenOptions } from "./app/node-adapter.ts";
export type { LimitSettings, ResponseSettings, Settings } from "./app/settings.ts";
export { DEFAULT_LIMITS } from "./app/settings.ts";
export type { ShutdownSignalOptions } from "./app/shutdown-signals.ts";
export { handleShutdownSignals } from "./app/shutdown-signals.ts";
export type { StartupHook } from "./app/startup.ts";
export { StartupError } from "./app/startup.ts";
export type { WorkerOptions } from "./app/workers.ts";
export { runWorkers } from "./app/workers.ts";
export type { ValidationIssue } from "./errors.ts";
export {
  ForbiddenError,
  HttpError,
  MalformedBodyError,
  MethodNotAllowedError,
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
export type { Middleware, MiddlewareRoute, Next } from "./http/middleware.ts";
export {
  HttpErrorSchema,
  HttpValidationErrorSchema,
  ValidationIssueSchema,
} from "./openapi/error-schemas.ts";
export type { OpenApiSettings } from "./openapi/settings.ts";
export type { DependencyOverride } from "./route/overrides.ts";
