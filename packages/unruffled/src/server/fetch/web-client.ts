import type { ClientSocket } from "../../client-address/resolve-client.ts";
import type { BodySource } from "../../http/body.ts";
import type { NodeResponseEvents } from "../../http/client-signal.ts";
import type { DeferredBody } from "../../http/request.ts";
import { WebRequestBody } from "./web-request-body.ts";

/** A client's address and port, as a runtime's server tells them. */
export interface Peer {
  readonly address: string;
  readonly port: number;
}

/** How a runtime's server tells the client's address of a request (null: it cannot). */
export type PeerOf = (webRequest: Request, context: unknown) => Peer | null;

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
export class WebClient implements NodeResponseEvents, ClientSocket, DeferredBody {
  /** Set once the whole answer was handed to the runtime: a later abort is not a client leaving. */
  writableFinished = false;

  private readonly webRequest: Request;
  private readonly context: unknown;
  private readonly peerOf: PeerOf | undefined;
  private peer: Peer | null | undefined;
  private cancelled = false;
  /** The listener `request.signal` gave `once("close")`, told when the body is cancelled too. */
  private onClose: (() => void) | undefined;

  /**
   * `peerOf` tells the client's address from the request and what the runtime passed beside it
   * (`context`); asked only when the address is read. One object per request for all three: the
   * request's socket (`request.client`), its connection (`request.signal`) and what makes its
   * body's source.
   */
  constructor(webRequest: Request, context?: unknown, peerOf?: PeerOf) {
    this.webRequest = webRequest;
    this.context = context;
    this.peerOf = peerOf;
  }

  get remoteAddress(): string | undefined {
    return this.peerNow()?.address;
  }

  get remotePort(): number | undefined {
    return this.peerNow()?.port;
  }

  /**
   * Whether the request came over TLS. The app's own servers (`serve()` on Bun and Deno, which tell
   * the peer) speak plain HTTP; under a server of the user's (`Bun.serve({ tls, fetch: app.fetch })`,
   * `Deno.serve({ cert, key }, app.fetch)`) the request's URL says `https:`. Deno makes that URL from
   * a target sent in absolute form, scheme included: a client that writes `GET https://…` over plain
   * HTTP is believed there, for its own request only.
   */
  get encrypted(): boolean {
    return this.peerOf === undefined && this.webRequest.url.startsWith("https:");
  }

  private peerNow(): Peer | null | undefined {
    if (this.peer === undefined && this.peerOf !== undefined) {
      this.peer = this.peerOf(this.webRequest, this.context);
    }
    return this.peer;
  }

  /** The request's body, made when something first reads it: most requests (a GET) never do. */
  deferredBody(): BodySource {
    return new WebRequestBody(this.webRequest, this.webRequest.headers);
  }

  get closed(): boolean {
    return this.cancelled || this.webRequest.signal.aborted;
  }

  once(_event: "close", listener: () => void): this {
    this.onClose = listener;
    this.webRequest.signal.addEventListener("abort", listener, { once: true });
    return this;
  }

  /**
   * The answer's body was cancelled before its end: the client left, though the request's signal
   * may never abort (`app.fetch`'s caller cancelling the body has no connection to close).
   */
  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.onClose?.();
  }
}
