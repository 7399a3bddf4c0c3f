import type { IncomingMessage, ServerResponse } from "node:http";

/** Node's request and response, as a fetch-based host on Node hands them to its handler. */
export interface NodeBindings {
  readonly incoming: IncomingMessage;
  readonly outgoing: ServerResponse;
}

/**
 * The Node request and response behind a web `Request`, when the host that called the fetch handler
 * passes them beside it, as `@hono/node-server` does (`fetch(request, { incoming, outgoing })`, its
 * documented `HttpBindings`). Reading headers, body, peer and "the client left" from them is what the
 * Node adapter does, and skips the host's web `Headers` and body streams. HTTP/1 only: an HTTP/2
 * request's headers hold pseudo-headers (`:path`), which the app does not expect.
 *
 * @example const node = nodeBindingsOf(context); const headers = node?.incoming.headers;
 */
export function nodeBindingsOf(context: unknown): NodeBindings | undefined {
  if (typeof context !== "object" || context === null) return undefined;
  const { incoming, outgoing } = context as Partial<NodeBindings>;
  if (incoming === undefined || outgoing === undefined || incoming.httpVersionMajor !== 1) return undefined;
  if (typeof incoming.headers !== "object" || typeof outgoing.once !== "function") return undefined;
  return context as NodeBindings;
}
