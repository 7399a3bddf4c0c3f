import type { Server } from "node:http";

// How often idle connections are looked for while closing: a connection whose answer ended just
// after close() began would otherwise wait out its keep-alive timeout.
const IDLE_SWEEP_MS = 50;

/**
 * Closes a Node server: no new connections, idle ones closed at once and as they become idle,
 * busy ones left to finish until `timeoutMs`, then cut. Resolves when every connection is gone.
 *
 * @example await closeGracefully(server, 10_000)
 */
export function closeGracefully(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs);
    server.close((error) => {
      clearInterval(sweep);
      clearTimeout(deadline);
      if (error) reject(error);
      else resolve();
    });
    server.closeIdleConnections();
  });
}
