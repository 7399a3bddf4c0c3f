/**
 * The parts of `ws` this room uses, written out so that the package's types do not need `@types/ws`
 * (ws is an optional peer: an app without WebSocket routes neither installs nor loads it). Bun's
 * own WebSockets are given the same shape (bun-upgrade.ts).
 */
export interface PeerSocket {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string, callback?: (error?: Error) => void): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  ping(): void;
  pause(): void;
  resume(): void;
  /** A text message as bytes (ws) or as a string (Bun's WebSockets, see bun-upgrade.ts). */
  on(
    event: "message",
    listener: (data: Buffer | ArrayBuffer | Buffer[] | string, isBinary: boolean) => void,
  ): unknown;
  on(event: "close", listener: (code: number, reason: Buffer | string) => void): unknown;
  on(event: "pong", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}

/** A `ws` server without its own HTTP server: the app hands it the upgrades it accepted. */
export interface PeerServer {
  /** ws's `headers` event: the 101's lines, which a listener may add to, just before they are written. */
  on(event: "headers", listener: (lines: string[], request: unknown) => void): unknown;
  off(event: "headers", listener: (lines: string[], request: unknown) => void): unknown;
  handleUpgrade(
    request: unknown,
    socket: unknown,
    head: Buffer,
    callback: (socket: PeerSocket) => void,
  ): void;
}

interface WsModule {
  WebSocketServer: new (options: {
    noServer: true;
    maxPayload: number;
    clientTracking: false;
    perMessageDeflate: false;
    skipUTF8Validation: false;
  }) => PeerServer;
}

let loading: Promise<WsModule> | undefined;

/**
 * Loads `ws` once, the first time an app with a WebSocket route needs it; rejects with a message
 * that says how to install it.
 *
 * @example const { WebSocketServer } = await loadWs();
 */
export function loadWs(): Promise<WsModule> {
  loading ??= import("ws").then(
    // The named exports of ws's ESM wrapper; its default export is the client class.
    (module) => module as unknown as WsModule,
    (error: unknown) => {
      loading = undefined;
      throw new Error("WebSocket routes need the ws package (an optional peer dependency): npm install ws", {
        cause: error,
      });
    },
  );
  return loading;
}

/** A `ws` server for one route's limits; no permessage-deflate (its memory per socket is large). */
export async function peerServer(maxPayload: number): Promise<PeerServer> {
  const { WebSocketServer } = await loadWs();
  return new WebSocketServer({
    noServer: true,
    maxPayload,
    clientTracking: false,
    perMessageDeflate: false,
    skipUTF8Validation: false,
  });
}
