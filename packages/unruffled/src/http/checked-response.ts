import { EventFrames } from "./event-frames.ts";
import { EventStreamResponse } from "./event-stream-response.ts";
import { FileResponse } from "./file-response.ts";
import type { HttpRequest } from "./request.ts";
import { HttpResponse } from "./response.ts";
import { StreamingResponse } from "./streaming-response.ts";

/** Where a streamed body's late failure is told: the app's error logger. */
interface FailureLog {
  error(details: Record<string, unknown>, message: string): void;
}

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
 * A response ready to be sent, whoever made it (an endpoint, a middleware, an exception handler): a
 * `FileResponse` first looks at its file and fits itself to the request; a `StreamingResponse` waits
 * for its source's first chunk, and a failure of its source after that is logged (its connection is
 * cut), as an `EventStreamResponse`'s is; any other as it is. What that rejects with is the caller's to answer (a 500, before any header).
 */
export function readyResponse(
  response: HttpResponse,
  request: HttpRequest,
  errorLogger: FailureLog,
): HttpResponse | Promise<HttpResponse> {
  if (response instanceof FileResponse) return response.prepareFor(request);
  if (response instanceof StreamingResponse) {
    return response.body
      .started((error) =>
        errorLogger.error(
          { err: error, reqId: request.id, method: request.method, path: request.path },
          "A streamed body failed after its answer began; its connection was closed",
        ),
      )
      .then(() => response);
  }
  if (response instanceof EventStreamResponse) watchEventStream(response, request, errorLogger);
  return response;
}

// The event streams whose failure is told already: one passing through middleware is told once.
const watched = new WeakSet<object>();

/** An event stream that fails once its answer began cannot become a 500: it is logged, and its connection closed. */
function watchEventStream(stream: EventStreamResponse, request: HttpRequest, errorLogger: FailureLog): void {
  const frames = stream.body;
  if (watched.has(frames)) return;
  watched.add(frames);
  frames.once("error", (error: unknown) => {
    // Destroyed from outside is a client gone, not a failure: a web runtime cancels the body with
    // its own reason (Bun an AbortError, Deno the string "resource closed").
    if (frames instanceof EventFrames && error !== frames.failure) return;
    errorLogger.error(
      { err: error, reqId: request.id, method: request.method, path: request.path },
      "An event stream failed after its answer began; its connection was closed",
    );
  });
}
