/**
 * Every error the framework raises derives from `UnruffledError`, so an app can catch them by type.
 *
 * Definition errors (`ValueError`, `TypeHintRequired`) are raised while routes are built, before the
 * server listens. Request errors (`HttpError` and its subclasses, `RequestValidationError`) become
 * responses through the app's exception handlers.
 */
export class UnruffledError extends Error {
  override name = "UnruffledError";
}

/** A declaration that cannot work: a bare default, Json and Form together, an unknown placeholder… */
export class ValueError extends UnruffledError {
  override name = "ValueError";
}

/**
 * No route has the name given to `app.urlPathFor` or `request.urlFor`, or it does not take the path
 * parameters given (Starlette's `NoMatchFound`).
 */
export class NoMatchFound extends UnruffledError {
  override name = "NoMatchFound";
}

/** A parameter without a schema, or an endpoint without `returns`. */
export class TypeHintRequired extends UnruffledError {
  override name = "TypeHintRequired";
}

/** An error that maps to one HTTP status; the default handler answers `{"detail": message}`. */
export class HttpError extends UnruffledError {
  override name = "HttpError";
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

/**
 * An error whose problem has a type of its own (a 429's quota-exceeded) while its `{"detail"}` form
 * stays plain: what the problem details of `ERRORS.format: "problem"` add to the `about:blank`
 * members. The error's own shape, so that an error declared below the problem room can carry it.
 */
export interface ProblemMembers {
  readonly problemMembers: { type: string; title?: string } & Record<string, unknown>;
}

export class NotFoundError extends HttpError {
  override name = "NotFoundError";
  constructor(message = "Not Found") {
    super(404, message);
  }
}

export class MethodNotAllowedError extends HttpError {
  override name = "MethodNotAllowedError";
  readonly allowed: readonly string[];
  constructor(allowed: readonly string[]) {
    super(405, `Method Not Allowed; allowed: ${allowed.join(", ")}`, { allow: allowed.join(", ") });
    this.allowed = allowed;
  }
}

/**
 * Missing or unverified credentials: 401, with a `WWW-Authenticate` header naming the scheme. The
 * message says what was wrong, never the credential.
 */
export class UnauthorizedError extends HttpError {
  override name = "UnauthorizedError";
  constructor(message: string, challenge: string) {
    super(401, message, { "www-authenticate": challenge });
  }
}

/** Verified credentials that lack a permission the endpoint needs (a scope): 403. */
export class ForbiddenError extends HttpError {
  override name = "ForbiddenError";
  constructor(message: string, headers: Record<string, string> = {}) {
    super(403, message, headers);
  }
}

/** The body could not be parsed in the format its content type names (malformed JSON, a broken multipart). */
export class MalformedBodyError extends HttpError {
  override name = "MalformedBodyError";
  constructor(message: string) {
    super(400, message);
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  override name = "UnsupportedMediaTypeError";
  constructor(message: string, headers?: Record<string, string>) {
    super(415, message, headers);
  }
}

/** A body, a file or a count went past a configured limit; the rest of the body is not read. */
export class PayloadTooLargeError extends HttpError {
  override name = "PayloadTooLargeError";
  readonly limit: number;
  constructor(message: string, limit: number) {
    super(413, message);
    this.limit = limit;
  }
}

export class RequestTimeoutError extends HttpError {
  override name = "RequestTimeoutError";
  constructor(message = "Request Timeout: the body did not arrive in time") {
    super(408, message);
  }
}

/**
 * An endpoint's answer that its declared model refuses (in strict mode, or a value of the wrong kind)
 * or that is not JSON at all (a BigInt, a cycle). The app answers 500; the message, which goes to the
 * log, names the endpoint, the status and the field.
 */
export class ResponseValidationError extends UnruffledError {
  override name = "ResponseValidationError";
  /** How messages name the endpoint: `endpoint "list_students" (GET /api/enroll/student-list)`. */
  readonly endpoint: string;
  readonly status: number;
  /** The field the model refuses (`data[0].email`), or "" for the whole body. */
  readonly path: string;

  constructor(endpoint: string, status: number, path: string, problem: string, options?: ErrorOptions) {
    // A WebSocket route's messages come after its 101: it sent them, it did not answer with them.
    super(
      status === 101 ? `${endpoint} sent ${problem}` : `${endpoint} answered ${status} with ${problem}`,
      options,
    );
    this.endpoint = endpoint;
    this.status = status;
    this.path = path;
  }
}

/** One validation failure: where (`loc`), what (`msg`, `type`) and the value that was given. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
  input: unknown;
}

/** Everything wrong with a request's parameters, from every source, collected in one error. */
export class RequestValidationError extends UnruffledError {
  override name = "RequestValidationError";
  readonly issues: ValidationIssue[];

  constructor(issues: ValidationIssue[]) {
    super(issues.map((issue) => `${issue.loc.join(".")}: ${issue.msg}`).join("; "));
    this.issues = issues;
  }
}
