import type { HttpRequest } from "../../http/request.ts";
import type { HttpResponse } from "../../http/response.ts";
import { type BunSocket, BunUpgrade, type BunUpgrader } from "../../websocket/bun-upgrade.ts";
import type { UpgradeTransport } from "../../websocket/upgrade-transport.ts";

/**
 * What serving WebSocket routes on a runtime's own server needs of the app: its upgrades
 * (websocket/upgrades.ts), the largest message a route takes, and their part of closing.
 */
export interface WebSocketServing {
  readonly maxPayload: number;
  upgrade(request: HttpRequest, transport: UpgradeTransport): void;
  /** Sends 1001 to every open socket; resolves once they closed, or at the deadline. */
  close(timeout: number): Promise<void>;
}

/**
 * `Bun.serve`'s `websocket` option: every socket's events go to its `BunPeer` (the socket's
 * `data`). Bun's own idle timeout and pings are off: each route's `pingInterval` heartbeat does
 * that, as on Node. No limit on Bun's send buffer: the route's backpressure policy keeps it.
 *
 * @example Bun.serve({ fetch, websocket: bunWebSocketHandlers(1024 * 1024) })
 */
export function bunWebSocketHandlers(maxPayload: number) {
  return {
    maxPayloadLength: maxPayload,
    idleTimeout: 0,
    sendPings: false,
    backpressureLimit: 0,
    perMessageDeflate: false,
    open: (socket: BunSocket) => socket.data.opened(socket),
    message: (socket: BunSocket, message: string | Buffer) => socket.data.received(message),
    close: (socket: BunSocket, code: number, reason: string) => socket.data.closed(code, reason),
    pong: (socket: BunSocket) => socket.data.ponged(),
    drain: (socket: BunSocket) => socket.data.drained(),
  };
}

/** `Bun.serve`'s `websocket` option, as `bunWebSocketHandlers` makes it. */
export type BunWebSocketHandlers = ReturnType<typeof bunWebSocketHandlers>;

/**
 * The fetch handler's part for upgrade requests on `Bun.serve`: the app's WebSocket upgrades, with
 * a refusal answered as a web `Response`.
 *
 * @example webHandler(app, inFlight, bunUpgrades(app.websocketUpgrades, toWeb))
 */
export function bunUpgrades(
  serving: WebSocketServing,
  toWeb: (response: HttpResponse) => Response,
): (webRequest: Request, context: unknown, request: HttpRequest) => Promise<Response | undefined> {
  return (webRequest, context, request) => {
    const transport = new BunUpgrade(webRequest, context as BunUpgrader, request, toWeb);
    serving.upgrade(request, transport);
    return transport.answer;
  };
}
