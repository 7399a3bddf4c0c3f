import { UnauthorizedError } from "../errors.ts";
import type { HttpRequest } from "../http/request.ts";
import {
  type SecurityScheme,
  type SecuritySchemeObject,
  SecurityScopes,
} from "../route/declare/security-scheme.ts";

/** What `verify` may answer: the principal, or nothing for credentials it does not accept. */
export type Verified<P> = P | null | undefined | Promise<P | null | undefined>;

/** What every scheme takes besides its credentials and `verify`. */
export interface SchemeOptions<P> {
  /** Its key in `components.securitySchemes` (each scheme has a default). */
  name?: string;
  /** Shown with the scheme in the document and the Authorize dialog. */
  description?: string;
  /** The scopes a principal holds (default: its `scope`, `scp` or `scopes` claim). */
  scopesOf?: (principal: P) => readonly string[];
}

/** The scheme's OpenAPI object, with the description when one was given. */
export function documented(
  openapi: Record<string, unknown>,
  description: string | undefined,
): Record<string, unknown> {
  return description === undefined ? openapi : { ...openapi, description };
}

const NO_SCOPES = new SecurityScopes();

/** A credential that is there but cannot be used (a malformed `Authorization` header). */
export const MALFORMED = Symbol("malformed credentials");
/**
 * Credentials of another authentication scheme (`Basic …` where a bearer token is read): refused as
 * malformed ones are, but challenged as a request without any (RFC 6750 §3.1: no error code for a
 * client that used an unsupported method).
 */
export const OTHER_SCHEME = Symbol("credentials of another scheme");

/** How one kind of scheme reads, checks and describes its credentials. */
export interface SchemeParts<C, P> {
  name: string;
  openapi: SecuritySchemeObject;
  /** The `WWW-Authenticate` challenge without credentials, and with ones that failed. */
  challenge: { missing: string; rejected: string };
  /** The 401 messages: never the credential itself; `malformed` for schemes whose `read` can say so. */
  messages: { missing: string; malformed?: string; rejected: string };
  /** The credential in the request; undefined when there is none. */
  read(request: HttpRequest): C | undefined | typeof MALFORMED | typeof OTHER_SCHEME;
  verify(credential: C, request: HttpRequest, scopes: SecurityScopes): Verified<P>;
  scopesOf: ((principal: P) => readonly string[]) | undefined;
}

/**
 * A security scheme from its parts: reads the credential, has `verify` check it, and refuses with a
 * 401 (or answers `undefined` when optional) when there is none, it is malformed, or it fails.
 */
export function securityScheme<C, P>(parts: SchemeParts<C, P>): SecurityScheme<P> {
  if (typeof parts.name !== "string" || !/^[A-Za-z0-9._-]+$/.test(parts.name)) {
    throw new TypeError(
      `A security scheme's name is letters, digits, ".", "_" or "-", got ${JSON.stringify(parts.name)}.`,
    );
  }
  const refuse = (message: string, challenge: string, optional: boolean): undefined => {
    if (optional) return undefined;
    throw new UnauthorizedError(message, challenge);
  };
  const accept = (principal: P | null | undefined, optional: boolean): P | undefined =>
    principal === null || principal === undefined
      ? refuse(parts.messages.rejected, parts.challenge.rejected, optional)
      : principal;
  return Object.freeze({
    kind: "security-scheme" as const,
    name: parts.name,
    openapi: Object.freeze({ ...parts.openapi }),
    authenticate(
      request: HttpRequest,
      optional: boolean,
      scopes: SecurityScopes = NO_SCOPES,
    ): P | undefined | Promise<P | undefined> {
      const credential = parts.read(request);
      if (credential === undefined) return refuse(parts.messages.missing, parts.challenge.missing, optional);
      if (credential === MALFORMED || credential === OTHER_SCHEME)
        return refuse(
          parts.messages.malformed ?? parts.messages.rejected,
          credential === MALFORMED ? parts.challenge.rejected : parts.challenge.missing,
          optional,
        );
      const verified = parts.verify(credential, request, scopes);
      if (verified instanceof Promise) return verified.then((principal) => accept(principal, optional));
      return accept(verified, optional);
    },
    scopesOf: parts.scopesOf ?? defaultScopes,
  }) as SecurityScheme<P>;
}

/**
 * The scopes of a principal by the usual claims: `scope` (space-separated, OAuth 2 and JWT),
 * `scp` or `scopes` (a list, or space-separated).
 */
export function defaultScopes(principal: unknown): readonly string[] {
  if (typeof principal !== "object" || principal === null) return [];
  const claims = principal as Record<string, unknown>;
  for (const value of [claims.scope, claims.scp, claims.scopes]) {
    if (typeof value === "string") return value.split(" ").filter(Boolean);
    if (Array.isArray(value)) return value.filter((scope): scope is string => typeof scope === "string");
  }
  return [];
}

/** Checks a `verify` option when the scheme is made, not at the first request. */
export function checkedVerify<F>(verify: F, scheme: string): F {
  if (typeof verify !== "function") throw new TypeError(`${scheme}({ verify }) needs a verify function.`);
  return verify;
}
