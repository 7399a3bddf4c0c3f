import type { HttpRequest } from "./request.ts";

/**
 * Whether a request asks to switch protocols, as Node reads it before emitting `upgrade`: an
 * `Upgrade` header, and `upgrade` among the `Connection` header's options.
 *
 * @example asksForUpgrade(request) // true for Upgrade: websocket with Connection: keep-alive, Upgrade
 */
export function asksForUpgrade(request: HttpRequest): boolean {
  const connection = request.header("connection");
  return (
    request.header("upgrade") !== undefined &&
    typeof connection === "string" &&
    connection
      .toLowerCase()
      .split(",")
      .some((option) => option.trim() === "upgrade")
  );
}
