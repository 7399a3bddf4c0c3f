import { createServer } from "node:net";

/**
 * A TCP port of 127.0.0.1 that was free a moment ago; another process may still take it first.
 * @example const port = await freePort(); spawn(process.execPath, [server], { env: { PORT: String(port) } });
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
