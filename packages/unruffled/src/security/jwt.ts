import type { KeyObject } from "node:crypto";
import type { CryptoKey, JSONWebKeySet, JWK, JWTHeaderParameters, JWTPayload } from "jose";

type Jose = typeof import("jose");

/** What a verified token says about its subject: the standard claims and the issuer's own. */
export type JwtClaims = JWTPayload;

export interface JwtVerifierOptions {
  /** The algorithms accepted (`["HS256"]`, `["RS256", "ES256"]`); `none` never is. Required. */
  algorithms: readonly string[];
  /** The shared secret of HS256/384/512: at least as long as the hash (32, 48 or 64 bytes). */
  secret?: string | Uint8Array;
  /** The public key of RS*, PS*, ES* or EdDSA: PEM (SPKI), a JWK, a `KeyObject` or a `CryptoKey`. */
  publicKey?: string | JWK | KeyObject | CryptoKey;
  /** The issuer's public keys as a JSON Web Key Set, picked by the token's `kid`. */
  jwks?: JSONWebKeySet;
  /** The `iss` claim required (one of these). */
  issuer?: string | readonly string[];
  /** The `aud` claim required (one of these). */
  audience?: string | readonly string[];
  /** Seconds of clock difference allowed for `exp` and `nbf` (default 0). */
  clockTolerance?: number;
  /** The oldest `iat` accepted, in seconds or as `"2h"`. */
  maxTokenAge?: number | string;
  /** Claims that must be present, beyond those the options above require. */
  requiredClaims?: readonly string[];
}

const HMAC = /^HS(256|384|512)$/;

// jose is loaded with the first token: an app that checks none (or only API keys) never loads it.
let jose: Promise<Jose> | undefined;

/**
 * A `verify` for bearer schemes that checks a JSON Web Token with `jose`: its signature (HS*, RS*,
 * PS*, ES*, EdDSA, by a secret, a public key or a local JWKS), then `exp` and `nbf` (with
 * `clockTolerance`), `iss` and `aud`. Resolves to the token's claims, or null for a token that
 * fails any check (a 401 for the client). A key that cannot be read fails loudly instead: that is
 * the server's mistake, not the client's.
 *
 * @example
 * const bearer = httpBearer({
 *   bearerFormat: "JWT",
 *   verify: jwtVerifier({ secret: process.env.JWT_SECRET!, algorithms: ["HS256"], issuer: "enroll", audience: "api" }),
 * });
 */
export function jwtVerifier<C extends JwtClaims = JwtClaims>(
  options: JwtVerifierOptions,
): (token: string) => Promise<C | null> {
  const algorithms = checkedAlgorithms(options.algorithms);
  const keyFor = keySource(options, algorithms);
  const verifyOptions = {
    algorithms: [...algorithms],
    ...(options.issuer === undefined ? {} : { issuer: toList(options.issuer) }),
    ...(options.audience === undefined ? {} : { audience: toList(options.audience) }),
    ...(options.clockTolerance === undefined ? {} : { clockTolerance: options.clockTolerance }),
    ...(options.maxTokenAge === undefined ? {} : { maxTokenAge: options.maxTokenAge }),
    ...(options.requiredClaims === undefined ? {} : { requiredClaims: [...options.requiredClaims] }),
  };
  return async (token) => {
    jose ??= import("jose");
    const library = await jose;
    const key = await keyFor(library);
    try {
      const { payload } = await library.jwtVerify(token, key, verifyOptions);
      return payload as C;
    } catch (error) {
      if (error instanceof library.errors.JOSEError) return null;
      throw error;
    }
  };
}

type KeyInput = Parameters<Jose["jwtVerify"]>[1];

/** How the key is found for each token, checked when the verifier is made. */
function keySource(
  options: JwtVerifierOptions,
  algorithms: readonly string[],
): (library: Jose) => Promise<KeyInput> {
  const given = [options.secret, options.publicKey, options.jwks].filter((source) => source !== undefined);
  if (given.length !== 1) {
    throw new TypeError("jwtVerifier needs exactly one of secret, publicKey and jwks.");
  }
  const hmac = algorithms.filter((algorithm) => HMAC.test(algorithm));
  if (options.secret !== undefined) {
    if (hmac.length !== algorithms.length) {
      throw new TypeError(
        `jwtVerifier: a secret verifies HS256, HS384 or HS512 only, not ${algorithms.join(", ")}.`,
      );
    }
    const secret =
      typeof options.secret === "string" ? new TextEncoder().encode(options.secret) : options.secret;
    // RFC 7518 §3.2: a key at least as long as the hash, for the longest hash accepted.
    const bits = Math.max(...hmac.map((algorithm) => Number(algorithm.slice(2))));
    if (secret.byteLength < bits / 8) {
      throw new TypeError(
        `jwtVerifier: the secret must be at least ${bits / 8} bytes for HS${bits} (RFC 7518 §3.2: as long as the hash).`,
      );
    }
    return async () => secret;
  }
  if (hmac.length > 0) throw new TypeError("jwtVerifier: HS algorithms need a secret, not a public key.");
  if (options.jwks !== undefined) {
    if (!Array.isArray(options.jwks.keys))
      throw new TypeError("jwtVerifier: jwks must be a key set { keys: [...] }.");
    let keySet: KeyInput | undefined;
    return async (library) => {
      keySet ??= library.createLocalJWKSet(options.jwks!) as KeyInput;
      return keySet;
    };
  }
  const publicKey = options.publicKey!;
  if (typeof publicKey !== "string" && !isJwk(publicKey)) return async () => publicKey as KeyInput;
  // A PEM or JWK key is imported once for each accepted algorithm its type can serve. A token naming
  // another (an RSA key, a token signed ES256) is the client's mistake, refused as a token;
  // a key that serves none of the algorithms is the server's, and fails loudly.
  let byAlgorithm: Promise<Map<string, CryptoKey | Uint8Array>> | undefined;
  return async (library) => {
    byAlgorithm ??= importForEach(library, publicKey, algorithms);
    const keys = await byAlgorithm;
    return async (header: JWTHeaderParameters) => {
      const key = keys.get(header.alg ?? "");
      if (key === undefined)
        throw new library.errors.JOSEAlgNotAllowed(`the key cannot verify ${header.alg}`);
      return key;
    };
  };
}

async function importForEach(
  library: Jose,
  publicKey: string | JWK,
  algorithms: readonly string[],
): Promise<Map<string, CryptoKey | Uint8Array>> {
  const imports = await Promise.allSettled(
    algorithms.map((algorithm) =>
      typeof publicKey === "string"
        ? library.importSPKI(publicKey, algorithm)
        : library.importJWK(publicKey, algorithm),
    ),
  );
  const keys = new Map<string, CryptoKey | Uint8Array>();
  imports.forEach((outcome, i) => {
    if (outcome.status === "fulfilled") keys.set(algorithms[i]!, outcome.value);
  });
  if (keys.size === 0) throw (imports[0] as PromiseRejectedResult).reason;
  return keys;
}

function checkedAlgorithms(algorithms: readonly string[] | undefined): readonly string[] {
  if (!Array.isArray(algorithms) || algorithms.length === 0) {
    throw new TypeError('jwtVerifier needs the algorithms it accepts, such as algorithms: ["HS256"].');
  }
  if (algorithms.some((algorithm) => typeof algorithm !== "string" || algorithm.toLowerCase() === "none")) {
    throw new TypeError('jwtVerifier: "none" is not an algorithm; an unsigned token is never accepted.');
  }
  return algorithms;
}

function isJwk(value: unknown): value is JWK {
  return typeof value === "object" && value !== null && typeof (value as JWK).kty === "string";
}

function toList(value: string | readonly string[]): string | string[] {
  return typeof value === "string" ? value : [...value];
}
