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
  const length = scheme.length;
  if (header.charCodeAt(length) !== SPACE) return MALFORMED;
  // The usual spelling is compared in place; another case costs a lower-cased copy.
  if (!header.startsWith(scheme) && header.slice(0, length).toLowerCase() !== scheme.toLowerCase()) {
    return MALFORMED;
  }
  const credentials = header.slice(length + 1).trim();
  if (credentials === "" || credentials.includes(" ") || credentials.includes("\t")) return MALFORMED;
  return credentials;
}

const SPACE = 32;
