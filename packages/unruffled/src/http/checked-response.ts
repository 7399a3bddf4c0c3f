import { FileResponse } from "./file-response.ts";
import type { HttpRequest } from "./request.ts";
import { HttpResponse } from "./response.ts";

/**
 * What a handler, an exception handler or a middleware returned, when it is a response; a TypeError
 * naming `who` otherwise, answered as a 500.
 */
export function checkedResponse(response: unknown, who: string): HttpResponse {
  if (response instanceof HttpResponse) return response;
  throw new TypeError(
    `${who} returned ${response === null ? "null" : typeof response}, not a response; return a JsonResponse, a PlainTextResponse or another HttpResponse.`,
  );
}

/**
 * A response ready to be sent: a `FileResponse` (from a middleware or an exception handler) first
 * looks at its file and fits itself to the request; any other as it is. What that rejects with is
 * the caller's to answer.
 */
export function readyResponse(
  response: HttpResponse,
  request: HttpRequest,
): HttpResponse | Promise<HttpResponse> {
  return response instanceof FileResponse ? response.prepareFor(request) : response;
}
