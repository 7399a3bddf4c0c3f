import { ResponseValidationError } from "../errors.ts";
import { EventStreamResponse } from "../http/event-stream-response.ts";
import { type HttpResponse, JsonResponse } from "../http/response.ts";
import type { DeclaredAnswers } from "../route/serializer/declared-answers.ts";
import type { ResponseSerializer } from "../route/serializer/response-serializers.ts";

/**
 * Writes an endpoint's answer through the model its route declares for the answer's status: a JSON
 * body is written now (fields the model does not declare left out; validated by Zod first when
 * `strict`), so that what that throws is answered like any error of the handler; an event stream
 * gets the writer of its events' data. An answer built without a status takes the endpoint's one
 * declared success status. A success answer whose status declares no model goes through the
 * endpoint's success models (`DeclaredAnswers.undeclaredSuccess`), so it never sends a field none of
 * them names. A JSON body without a model is serialised now too. A JSON body where the status
 * declares an event stream, or the other way round, is refused (500): the model could not filter
 * it, and the document would say one thing while the service sends another.
 *
 * @example writeThroughModel(new JsonResponse(row), description.answers, false)
 */
export function writeThroughModel(
  response: HttpResponse,
  answers: DeclaredAnswers | undefined,
  strict: boolean,
): void {
  if (answers === undefined) {
    if (response instanceof JsonResponse) response.serialize();
    return;
  }
  if (answers.defaultStatus !== undefined && response.statusDefaulted && response.status === 200) {
    response.status = answers.defaultStatus;
  }
  if (response instanceof JsonResponse) {
    const own = answers.byStatus.get(response.status);
    const serializer = own ?? answers.undeclaredSuccess(response.status, "json");
    if (serializer === undefined) response.serialize();
    else if (serializer.format === "json") {
      response.serialize(strict ? serializer.writeChecked : serializer.write);
    } else throw kindMismatch(serializer, "a JSON body", own !== undefined);
    return;
  }
  if (response instanceof EventStreamResponse) {
    const own = answers.byStatus.get(response.status);
    const serializer = own ?? answers.undeclaredSuccess(response.status, "events");
    if (serializer === undefined) return;
    if (serializer.format === "events") {
      response.serializeDataWith(strict ? serializer.writeChecked : serializer.write);
    } else throw kindMismatch(serializer, "an event stream", own !== undefined);
  }
}
/**
 * The error for an answer of the other kind than its model's: the status's own ResponseSpec, or, for
 * a success status that declares none, the endpoint's success ResponseSpecs, which are all of the
 * other kind (else one of them would have been used).
 */
function kindMismatch(
  serializer: ResponseSerializer,
  given: string,
  ofItsStatus: boolean,
): ResponseValidationError {
  const declared = serializer.format === "json" ? "JSON bodies" : "event streams";
  const said = ofItsStatus
    ? `${given} where its ResponseSpec declares ${serializer.format === "json" ? "a JSON body" : "an event stream"}`
    : `${given}, a status it declares no ResponseSpec for, where its success ResponseSpecs declare only ${declared}`;
  return new ResponseValidationError(serializer.endpoint, serializer.status, "", said);
}
