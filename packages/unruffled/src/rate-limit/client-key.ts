import type { HttpRequest } from "../http/request.ts";

/**
 * The default key of a policy: the principal of the route's security scheme when it has one, else
 * the client's address. Swap `clientAddressKey` for a key that reads the address behind a trusted
 * proxy when the app is deployed behind one.
 *
 * @example rateLimit({ name: "hourly", limit: 20, window: 3600, key: (request, principal) => defaultKey(request, principal) })
 */
export function defaultKey(request: HttpRequest, principal: unknown): string {
  if (principal === undefined || principal === null) return clientAddressKey(request);
  return `principal:${principalIdentity(principal)}`;
}

/** The client's address as the request exposes it (the socket's peer: a proxy's, behind one). */
export function clientAddressKey(request: HttpRequest): string {
  return `address:${request.client.host ?? "unknown"}`;
}

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
