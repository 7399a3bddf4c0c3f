// One upgrade request written by hand, and the server's answer read off the connection: for the
// refusals of an upgrade (their status, headers and body) and for what a connection leaves behind.
import type { Server } from "node:http";
import { expect } from "vitest";
import { bodyOf, openRaw, statusOf } from "../support/raw-http.ts";

export interface UpgradeAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body, parsed when it is JSON; null after a 101 or without one. */
  body: unknown;
}

/** Whether `raw` holds a whole answer: a 101's head, or a head and the body its length announces. */
function complete(raw: string): boolean {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) return false;
  if (raw.startsWith("HTTP/1.1 101 ")) return true;
  const length = /\r\ncontent-length: *(\d+)/i.exec(raw.slice(0, end));
  return length !== null && raw.length - end - 4 >= Number(length[1]);
}

/**
 * Sends `GET target` asking for a WebSocket, with `headers` over the defaults (`host: undefined`
 * leaves Host out), and resolves to the answer once it is whole. The client then closes its side.
 */
export async function upgradeAnswer(
  port: number,
  target: string,
  headers: Record<string, string | undefined> = {},
): Promise<UpgradeAnswer> {
  const all: Record<string, string | undefined> = {
    host: `127.0.0.1:${port}`,
    upgrade: "websocket",
    connection: "Upgrade",
    "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
    "sec-websocket-version": "13",
    ...headers,
  };
  const lines = Object.entries(all)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  const exchange = await openRaw(port);
  await exchange.write(`GET ${target} HTTP/1.1\r\n${lines}\r\n`);
  await expect.poll(() => complete(exchange.received()), { timeout: 15_000 }).toBe(true);
  exchange.socket.end();
  const raw = exchange.received();
  const head = raw.slice(0, raw.indexOf("\r\n\r\n")).split("\r\n").slice(1);
  const text = bodyOf(raw);
  const status = statusOf(raw);
  return {
    status,
    headers: Object.fromEntries(
      head.map((line) => [
        line.slice(0, line.indexOf(":")).toLowerCase(),
        line.slice(line.indexOf(":") + 1).trim(),
      ]),
    ),
    body: text === "" || status === 101 ? null : /\/(problem\+)?json\r\n/.test(raw) ? JSON.parse(text) : text,
  };
}

/** How many connections `server` holds open. */
export function openConnections(server: Server): Promise<number> {
  return new Promise((resolve, reject) =>
    server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}
