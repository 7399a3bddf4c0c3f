import { JsonResponse } from "unruffled/http";
import { type EndpointDefinition, endpoint, type ParamDeclarations } from "unruffled/route";

/** An endpoint that answers with the values it received, so a test sees exactly what was resolved. */
export function echo<const P extends ParamDeclarations>(params: P): EndpointDefinition<P> {
  return endpoint({ params, returns: JsonResponse, handler: (_request, values) => new JsonResponse(values) });
}
