import type { NodeResponseEvents } from "../http/client-signal.ts";

/**
 * A web request's client, seen the way `request.signal` sees a Node response: it left when the
 * request's signal aborts before the answer was handed over in full. Deno aborts `request.signal`
 * after every successful response too (its legacy behaviour), and an abort that comes once the
 * answer is out is not a client leaving.
 *
 * The request's signal is touched only when `request.signal` is read: Bun makes it on first access.
 *
 * @example const client = new WebClient(webRequest); client.writableFinished = true; // once sent
 */
export class WebClient implements NodeResponseEvents {
  /** Set once the whole answer was handed to the runtime: a later abort is not a client leaving. */
  writableFinished = false;

  private readonly webRequest: Request;

  constructor(webRequest: Request) {
    this.webRequest = webRequest;
  }

  get closed(): boolean {
    return this.webRequest.signal.aborted;
  }

  once(_event: "close", listener: () => void): this {
    this.webRequest.signal.addEventListener("abort", listener, { once: true });
    return this;
  }
}
