/** The parts of Node's `ServerResponse` that tell whether the client is still there. */
export interface NodeResponseEvents {
  readonly writableFinished: boolean;
  readonly closed: boolean;
  once(event: "close", listener: () => void): unknown;
}

/** What tells a request that its client went away: the Node response being written, or a web `AbortSignal`. */
export type ClientConnection = NodeResponseEvents | AbortSignal;

/**
 * An `AbortSignal` that aborts when the client goes away before its answer is complete: the Node
 * response closed unfinished, or the web request's own signal. Made only when a request asks.
 *
 * @example clientGoneSignal(res).addEventListener("abort", () => query.cancel())
 */
export function clientGoneSignal(connection: ClientConnection | undefined): AbortSignal {
  if (connection instanceof AbortSignal) return connection;
  const controller = new AbortController();
  if (connection !== undefined) {
    const abortUnlessFinished = () => {
      if (!connection.writableFinished) controller.abort();
    };
    if (connection.closed) abortUnlessFinished();
    else connection.once("close", abortUnlessFinished);
  }
  return controller.signal;
}
