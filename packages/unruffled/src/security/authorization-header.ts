import type { HttpRequest } from "../http/request.ts";
import { MALFORMED } from "./scheme.ts";

/**
 * The credentials of an `Authorization: <scheme> <credentials>` header when its scheme is the one
 * asked for (compared without case, RFC 9110 §11.1); `MALFORMED` for another scheme or an empty or
 * spaced value; undefined without the header.
 *
 * @example credentialsOf(request, "Bearer") // "eyJhbGciOi…"
 */
export function credentialsOf(request: HttpRequest, scheme: string): string | undefined | typeof MALFORMED {
  const header = request.headers.authorization;
  if (header === undefined || header === "") return undefined;
  const space = header.indexOf(" ");
  if (space < 0 || header.slice(0, space).toLowerCase() !== scheme.toLowerCase()) return MALFORMED;
  const credentials = header.slice(space + 1).trim();
  if (credentials === "" || /\s/.test(credentials)) return MALFORMED;
  return credentials;
}
