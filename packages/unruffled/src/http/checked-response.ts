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
