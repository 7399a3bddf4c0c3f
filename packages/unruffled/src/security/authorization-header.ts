import type { HttpRequest } from "../http/request.ts";
import { MALFORMED, OTHER_SCHEME } from "./scheme.ts";

/**
 * The credentials of an `Authorization: <scheme> <credentials>` header when its scheme is the one
 * asked for (compared without case, RFC 9110 §11.1); `MALFORMED` for the scheme with an empty or
 * spaced value, `OTHER_SCHEME` for another scheme (or a value without one); undefined without the
 * header.
 *
 * @example credentialsOf(request, "Bearer") // "eyJhbGciOi…"
 */
export function credentialsOf(
  request: HttpRequest,
  scheme: string,
): string | undefined | typeof MALFORMED | typeof OTHER_SCHEME {
  const header = request.headers.authorization;
  if (header === undefined || header === "") return undefined;
  const length = scheme.length;
  // The usual spelling is compared in place; another case costs a lower-cased copy.
  if (
    header.charCodeAt(length) !== SPACE ||
    (!header.startsWith(scheme) && header.slice(0, length).toLowerCase() !== scheme.toLowerCase())
  ) {
    // The scheme's name alone ("Bearer") is the scheme without its credentials.
    return header.trim().toLowerCase() === scheme.toLowerCase() ? MALFORMED : OTHER_SCHEME;
  }
  const credentials = header.slice(length + 1).trim();
  if (credentials === "" || credentials.includes(" ") || credentials.includes("\t")) return MALFORMED;
  return credentials;
}

const SPACE = 32;
