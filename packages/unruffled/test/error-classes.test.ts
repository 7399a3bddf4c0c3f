// docs/errors.md: "Every error class derives from UnruffledError, exported by unruffled", with the
// status of its table.
import {
  ForbiddenError,
  HttpError,
  MalformedBodyError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  RequestTimeoutError,
  RequestValidationError,
  TypeHintRequired,
  UnauthorizedError,
  UnruffledError,
  UnsupportedMediaTypeError,
  ValueError,
} from "unruffled";
import { describe, expect, it } from "vitest";

describe("the error classes", () => {
  it("each derives from UnruffledError, the HTTP ones from HttpError with the status of the table", () => {
    const http: [HttpError, number][] = [
      [new HttpError(418, "short and stout"), 418],
      [new NotFoundError("gone"), 404],
      [new MethodNotAllowedError(["GET"]), 405],
      [new MalformedBodyError("bad JSON"), 400],
      [new UnsupportedMediaTypeError("not JSON"), 415],
      [new PayloadTooLargeError("too big", 10), 413],
      [new RequestTimeoutError(), 408],
      [new UnauthorizedError("who?", "Bearer"), 401],
      [new ForbiddenError("no"), 403],
    ];
    expect(
      http.map(([error]) => [error instanceof UnruffledError, error instanceof HttpError, error.status]),
    ).toEqual(http.map(([, status]) => [true, true, status]));
    const others = [new RequestValidationError([]), new ValueError("wrong"), new TypeHintRequired("untyped")];
    expect(others.map((error) => [error instanceof UnruffledError, error instanceof HttpError])).toEqual([
      [true, false],
      [true, false],
      [true, false],
    ]);
  });
});
