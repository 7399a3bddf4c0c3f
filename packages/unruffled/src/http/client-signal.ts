/** The parts of Node's `ServerResponse` that tell whether the client is still there. */
export interface NodeResponseEvents {
  readonly writableFinished: boolean;
  readonly closed: boolean;
  once(event: "close", listener: () => void): unknown;
}

/** What tells a request that its client went away: the Node response being written, or a web `AbortSignal`. */
export type ClientConnection = NodeResponseEvents | AbortSignal;

/**
 * Aborts `controller` when the client goes away before its answer is complete: the Node response
 * closed unfinished, or the web request's own signal. Made only when a request asks for its signal.
 *
 * @example abortWhenClientGoes(res, controller); controller.signal.addEventListener("abort", () => query.cancel())
 */
export function abortWhenClientGoes(
  connection: ClientConnection | undefined,
  controller: AbortController,
): void {
  if (connection === undefined) return;
  if (connection instanceof AbortSignal) {
    if (connection.aborted) controller.abort(connection.reason);
    else connection.addEventListener("abort", () => controller.abort(connection.reason), { once: true });
    return;
  }
  const abortUnlessFinished = () => {
    if (!connection.writableFinished) controller.abort();
  };
  if (connection.closed) abortUnlessFinished();
  else connection.once("close", abortUnlessFinished);
}
