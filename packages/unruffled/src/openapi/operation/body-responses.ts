import { PayloadTooLargeError, UnsupportedMediaTypeError } from "../../errors.ts";
import { ResponseSpec } from "../../route/declare/response-spec.ts";
import type { EndpointDescription } from "../../route/description.ts";
import { HttpErrorSchema } from "./error-schemas.ts";
import type { DocumentedErrors } from "./security.ts";

// What the default HTTP error handler answers when a body is too large or of another media type.
const TOO_LARGE = [
  new ResponseSpec({ code: "413", model: HttpErrorSchema, description: "Content Too Large" }),
];
const UNSUPPORTED = [
  new ResponseSpec({ code: "415", model: HttpErrorSchema, description: "Unsupported Media Type" }),
];

/**
 * The answers an operation that reads a body adds, as the app's handlers document them: 413 for a
 * body past its limit and 415 for another media type. The document and the generated client both
 * list them.
 *
 * @example bodyResponses(createStudent.description, app.exceptionHandlers) // [413 HTTPError, 415 HTTPError]
 */
export function bodyResponses(
  description: EndpointDescription,
  errors: DocumentedErrors,
): readonly ResponseSpec[] {
  if (description.bodyFormat === undefined) return [];
  return [
    ...errors.responsesFor(PayloadTooLargeError, TOO_LARGE),
    ...errors.responsesFor(UnsupportedMediaTypeError, UNSUPPORTED),
  ];
}
