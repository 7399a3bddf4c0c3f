import type { Socket } from "node:net";
import type { RefusedRequest } from "../logging/access-log.ts";
import { STATUS_CODES } from "../node-builtins.ts";
import { ABOUT_BLANK, PROBLEM_JSON, statusTitle } from "../problem/problem-details.ts";

/** The body of an answer in the app's error format: its media type and text. */
export interface ErrorBody {
  contentType: string;
  body: string;
}

/** How the app words an error it answers without a request: `detail` in its `ERRORS.format`, with an id. */
export type ErrorBodyOf = (status: number, detail: string, id: string) => ErrorBody;

/** The detail of a 408: a request, head or body, that did not arrive within its timeout. */
export const LATE_REQUEST = "The request did not arrive in time";

/**
 * The app's way of wording such an error: `{ "detail": ... }`, or problem details (RFC 9457) with
 * the id as the instance under `ERRORS.format` problem.
 *
 * @example errorBodyIn(app.exceptionHandlers.problems)(408, LATE_REQUEST, request.id)
 */
export function errorBodyIn(problems: boolean): ErrorBodyOf {
  if (!problems)
    return (_status, detail) => ({ contentType: "application/json", body: JSON.stringify({ detail }) });
  return (status, detail, id) => ({
    contentType: PROBLEM_JSON,
    body: JSON.stringify({ type: ABOUT_BLANK, title: statusTitle(status), status, detail, instance: id }),
  });
}

/** A request Node could not read: its parser's code and words. */
interface ClientError extends Error {
  code?: string;
  reason?: string;
}

/** The status and detail of what Node could not read, as Node itself would answer it (but with words). */
function answerOf(error: ClientError, headerSize: number): [number, string] {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return [431, `The request line and headers exceed the limit of ${headerSize} bytes`];
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return [413, "A chunk of the body carries more extensions than the server reads"];
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return [408, LATE_REQUEST];
    default:
      return [400, `Malformed HTTP request: ${error.reason ?? error.message}`];
  }
}

/**
 * Node's `clientError` listener: a request Node cannot read (a broken request line or header, a
 * head past `LIMITS.header_size`, a request that did not arrive in time) is answered 400, 431, 413
 * or 408, as Node answers it, but with a body in the app's error format and an `x-request-id`
 * (Node's own answer has neither), then the connection closes. Nothing is written to a connection
 * whose client is gone, or where an answer is being written already (a pipelined request behind
 * it was broken): its bytes would corrupt that answer. Each answer goes to `log` (the access log's
 * "request refused" record).
 *
 * @example server.on("clientError", clientErrorListener(errorBody, 16_384, nextId, log));
 */
export function clientErrorListener(
  errorBody: ErrorBodyOf,
  headerSize: number,
  nextId: () => string,
  log: (request: RefusedRequest) => void = () => {},
): (error: ClientError, socket: Socket) => void {
  return (error, socket) => {
    const inFlight = (socket as unknown as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent === true) {
      socket.destroy();
      return;
    }
    const [status, detail] = answerOf(error, headerSize);
    const id = nextId();
    const { contentType, body } = errorBody(status, detail, id);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: ${contentType}\r\nx-request-id: ${id}\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
    const client = socket.remoteAddress;
    socket.destroy();
    log({ reqId: id, status, client, reason: error.code });
  };
}
