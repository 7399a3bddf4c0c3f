import type { StreamsInFlight } from "./fetch/fetch-adapter.ts";
import type { NativeServer } from "./native-server.ts";

/** The part of `Deno.serve` the adapter uses. */
interface DenoHttpServer {
  readonly addr: { hostname: string; port: number };
  readonly finished: Promise<void>;
  shutdown(): Promise<void>;
}
interface DenoServeInfo {
  readonly remoteAddr: { hostname: string; port: number };
}
interface DenoGlobal {
  serve(
    options: { port: number; hostname: string; onListen: () => void },
    handler: (request: Request, info: DenoServeInfo) => Response | Promise<Response>,
  ): DenoHttpServer;
}

/**
 * Serves a fetch handler on `Deno.serve`, without Deno's own "Listening on" line (the caller tells
 * where it listens). A port in use is reported with Node's code, `EADDRINUSE`, as on the others.
 *
 * @example const native = serveOnDeno(webHandler(app, inFlight), { port: 0, hostname: "127.0.0.1" });
 */
export function serveOnDeno(
  handler: (request: Request, context?: unknown) => Response | Promise<Response>,
  inFlight: StreamsInFlight,
  options: { port: number; hostname: string },
): NativeServer {
  inFlight.peer = (_request, info) => {
    const { hostname, port } = (info as DenoServeInfo).remoteAddr;
    return { address: hostname, port };
  };
  const deno = (globalThis as unknown as { Deno: DenoGlobal }).Deno;
  let server: DenoHttpServer;
  try {
    server = deno.serve({ ...options, onListen: () => {} }, handler);
  } catch (error) {
    const name = (error as Error).name;
    if (name === "AddrInUse") Object.assign(error as Error, { code: "EADDRINUSE" });
    if (name === "PermissionDenied") Object.assign(error as Error, { code: "EACCES" });
    if (name === "AddrNotAvailable") Object.assign(error as Error, { code: "EADDRNOTAVAIL" });
    throw error;
  }
  return {
    hostname: server.addr.hostname,
    port: server.addr.port,
    async stop(deadline) {
      // shutdown() lets requests in flight finish; Deno has no way to cut them at the deadline
      // other than leaving them: the caller's process exits after close() anyway.
      await Promise.race([server.shutdown(), deadline]);
    },
  };
}
