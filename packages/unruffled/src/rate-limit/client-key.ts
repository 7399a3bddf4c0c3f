import type { HttpRequest } from "../http/request.ts";

/**
 * The default key of a policy: the principal of the route's security scheme when it has one, else
 * the client's address (behind proxies listed in `PROXIES`, the one they forwarded).
 *
 * @example rateLimit({ name: "hourly", limit: 20, window: 3600, key: (request, principal) => defaultKey(request, principal) })
 */
export function defaultKey(request: HttpRequest, principal: unknown): string {
  if (principal === undefined || principal === null) return clientAddressKey(request);
  return `principal:${principalIdentity(principal)}`;
}

/** The client's address: the socket's peer, or across trusted proxies (`PROXIES`) the one they name. */
export function clientAddressKey(request: HttpRequest): string {
  const address = request.clientAddress ?? "unknown";
  // A connection's requests share its address (the same string): they get the same key back, whose
  // hash a store's Map already knows, instead of a new string to hash on every request.
  if (address !== lastAddress) {
    lastAddress = address;
    lastAddressKey = `address:${address}`;
  }
  return lastAddressKey;
}

let lastAddress = "";
let lastAddressKey = "";

/**
 * A principal as a short string: itself when it is a string or a number, else its `sub`, `id`,
 * `username`, `name` or `email`; a long value is hashed, so that no credential reaches the store.
 */
export function principalIdentity(principal: unknown): string {
  let identity: unknown = principal;
  if (typeof principal === "object" && principal !== null) {
    const fields = principal as Record<string, unknown>;
    identity =
      fields.sub ?? fields.id ?? fields.username ?? fields.name ?? fields.email ?? JSON.stringify(principal);
  }
  const text = String(identity);
  return text.length <= 64
    ? text
    : process.getBuiltinModule("node:crypto").createHash("sha256").update(text).digest("base64url");
}
