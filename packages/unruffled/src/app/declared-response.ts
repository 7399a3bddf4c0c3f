import { EventStreamResponse } from "../http/event-stream-response.ts";
import { type HttpResponse, JsonResponse } from "../http/response.ts";
import type { ResponseSerializers } from "../route/serializer/response-serializers.ts";

/**
 * Writes an endpoint's answer through the model its route declares for the answer's status: a JSON
 * body is written now (fields the model does not declare left out; validated by Zod first when
 * `strict`), so that what that throws is answered like any error of the handler; an event stream
 * gets the writer of its events' data. A JSON body without a model is serialised now too.
 *
 * @example writeThroughModel(new JsonResponse(row), description.serializers, false)
 */
export function writeThroughModel(
  response: HttpResponse,
  serializers: ResponseSerializers | undefined,
  strict: boolean,
): void {
  if (response instanceof JsonResponse) {
    const serializer = serializers?.get(response.status);
    if (serializer?.format !== "json") response.serialize();
    else response.serialize(strict ? serializer.writeChecked : serializer.write);
    return;
  }
  if (serializers !== undefined && response instanceof EventStreamResponse) {
    const serializer = serializers.get(response.status);
    if (serializer?.format === "events") {
      response.serializeDataWith(strict ? serializer.writeChecked : serializer.write);
    }
  }
}
