import type { App } from "../app/app.ts";

/** An app listening on an ephemeral loopback port, for tests that need a real socket. */
export interface RunningServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** `fetch` against the server: `server.fetch("/hello")`. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Starts an app on `127.0.0.1` and a free port.
 *
 * @example
 * const server = await startServer(app);
 * const response = await server.fetch("/api/enroll/hello");
 * await server.close();
 */
export async function startServer(app: App): Promise<RunningServer> {
  await app.listen({ port: 0, host: "127.0.0.1" });
  const port = app.address()!.port;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    fetch: (path, init) => fetch(url + path, init),
    close: () => app.close(),
  };
}
