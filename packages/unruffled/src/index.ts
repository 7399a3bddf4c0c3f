export type { AppOptions, ErrorLogger, ListenOptions } from "./app/app.ts";
export { App, createApp } from "./app/app.ts";
export type { ErrorClass, ExceptionHandler, ExceptionHandlerFunction } from "./app/exception-handlers.ts";
export {
  exceptionHandler,
  HttpErrorSchema,
  HttpValidationErrorSchema,
  ValidationIssueSchema,
} from "./app/exception-handlers.ts";
export type { LimitSettings, OpenApiSettings, Settings } from "./app/settings.ts";
export { DEFAULT_LIMITS } from "./app/settings.ts";
export type { ValidationIssue } from "./errors.ts";
export {
  HttpError,
  MalformedBodyError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  RequestTimeoutError,
  RequestValidationError,
  TypeHintRequired,
  UnruffledError,
  UnsupportedMediaTypeError,
  ValueError,
} from "./errors.ts";
