import type { NodeResponseEvents } from "../http/client-signal.ts";

/**
 * A web request's client, seen the way `request.signal` sees a Node response: it left when the
 * request's signal aborts before the answer was handed over in full. Deno aborts `request.signal`
 * after every successful response too (its legacy behaviour), and an abort that comes once the
 * answer is out is not a client leaving.
 *
 * @example const client = new WebClient(webRequest.signal); client.writableFinished = true; // once sent
 */
export class WebClient implements NodeResponseEvents {
  /** Set once the whole answer was handed to the runtime: a later abort is not a client leaving. */
  writableFinished = false;

  private readonly webSignal: AbortSignal;

  constructor(webSignal: AbortSignal) {
    this.webSignal = webSignal;
  }

  get closed(): boolean {
    return this.webSignal.aborted;
  }

  once(_event: "close", listener: () => void): this {
    this.webSignal.addEventListener("abort", listener, { once: true });
    return this;
  }
}
