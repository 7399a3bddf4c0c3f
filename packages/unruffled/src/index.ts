export type { Logger } from "pino";
export type { AppOptions } from "./app/app.ts";
export { App, createApp } from "./app/app.ts";
export type { ErrorClass, ExceptionHandler, ExceptionHandlerFunction } from "./app/exception-handlers.ts";
export {
  exceptionHandler,
  HttpErrorSchema,
  HttpValidationErrorSchema,
  ValidationIssueSchema,
} from "./app/exception-handlers.ts";
export type { ErrorLogger } from "./app/handle-request.ts";
export type { LoggingSettings } from "./app/logging.ts";
export { createLogger, DEFAULT_LOG_LEVEL } from "./app/logging.ts";
export type { CloseOptions, ListenOptions } from "./app/node-adapter.ts";
export type { LimitSettings, ResponseSettings, Settings } from "./app/settings.ts";
export { DEFAULT_LIMITS } from "./app/settings.ts";
export type { ShutdownSignalOptions } from "./app/shutdown-signals.ts";
export { handleShutdownSignals } from "./app/shutdown-signals.ts";
export type { WorkerOptions } from "./app/workers.ts";
export { runWorkers } from "./app/workers.ts";
export type { ValidationIssue } from "./errors.ts";
export {
  HttpError,
  MalformedBodyError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  RequestTimeoutError,
  RequestValidationError,
  ResponseValidationError,
  TypeHintRequired,
  UnruffledError,
  UnsupportedMediaTypeError,
  ValueError,
} from "./errors.ts";
export type { OpenApiSettings } from "./openapi/settings.ts";
