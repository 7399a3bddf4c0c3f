import { execFile } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { fileURLToPath } from "node:url";
import { exportJWK, SignJWT, UnsecuredJWT } from "jose";
import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { httpBearer, jwtVerifier } from "unruffled/security";
import { testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";

const SECRET = "a-secret-of-at-least-thirty-two-bytes!";
const key = new TextEncoder().encode(SECRET);
const now = () => Math.floor(Date.now() / 1000);

function hs256(claims: Record<string, unknown> = {}, change: (jwt: SignJWT) => SignJWT = (jwt) => jwt) {
  const jwt = new SignJWT({ scope: "enroll:read", ...claims })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject("ann")
    .setIssuer("enroll")
    .setAudience("api")
    .setIssuedAt()
    .setExpirationTime("10m");
  return change(jwt).sign(key);
}

const verify = jwtVerifier({ secret: SECRET, algorithms: ["HS256"], issuer: "enroll", audience: "api" });

describe("jwtVerifier with a shared secret", () => {
  it("resolves to the claims of a valid token", async () => {
    expect(await verify(await hs256())).toMatchObject({
      sub: "ann",
      iss: "enroll",
      aud: "api",
      scope: "enroll:read",
    });
  });

  it.each([
    ["expired", () => hs256({}, (jwt) => jwt.setExpirationTime(now() - 60))],
    ["not valid yet", () => hs256({}, (jwt) => jwt.setNotBefore(now() + 600))],
    ["from another issuer", () => hs256({}, (jwt) => jwt.setIssuer("elsewhere"))],
    ["for another audience", () => hs256({}, (jwt) => jwt.setAudience("other"))],
    [
      "signed with another secret",
      async () => {
        return new SignJWT({})
          .setProtectedHeader({ alg: "HS256" })
          .setIssuer("enroll")
          .setAudience("api")
          .setExpirationTime("10m")
          .sign(new TextEncoder().encode("another-secret-of-thirty-two-bytes!!"));
      },
    ],
    [
      "unsigned (alg none)",
      async () => new UnsecuredJWT({ sub: "ann" }).setIssuer("enroll").setAudience("api").encode(),
    ],
    [
      "with a forged signature",
      async () => `${(await hs256()).split(".").slice(0, 2).join(".")}.${"A".repeat(43)}`,
    ],
    [
      "with a payload changed after signing",
      async () => {
        const [header, , signature] = (await hs256()).split(".");
        const payload = Buffer.from(JSON.stringify({ sub: "root", iss: "enroll", aud: "api" })).toString(
          "base64url",
        );
        return `${header}.${payload}.${signature}`;
      },
    ],
    ["not a JWT at all", async () => "garbage"],
    ["of four parts", async () => "a.b.c.d"],
  ])("resolves to null for a token %s", async (_case, token) => {
    expect(await verify(await token())).toBeNull();
  });

  it("allows clock difference up to clockTolerance", async () => {
    const lenient = jwtVerifier({ secret: SECRET, algorithms: ["HS256"], clockTolerance: 120 });
    const strict = jwtVerifier({ secret: SECRET, algorithms: ["HS256"] });
    const justExpired = await hs256({}, (jwt) => jwt.setExpirationTime(now() - 30));
    expect(await lenient(justExpired)).toMatchObject({ sub: "ann" });
    expect(await strict(justExpired)).toBeNull();
  });

  it("refuses a token of an algorithm it was not given", async () => {
    const onlyHs512 = jwtVerifier({ secret: SECRET.repeat(2), algorithms: ["HS512"] });
    expect(await onlyHs512(await hs256())).toBeNull();
  });
});

describe("jwtVerifier with public keys", () => {
  const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const sign = (alg: string, privateKey: unknown, kid?: string) =>
    new SignJWT({ sub: "svc" })
      .setProtectedHeader(kid === undefined ? { alg } : { alg, kid })
      .setExpirationTime("5m")
      .sign(privateKey as Parameters<SignJWT["sign"]>[0]);

  it("verifies RS256 with a PEM public key", async () => {
    const pem = rsa.publicKey.export({ type: "spki", format: "pem" }).toString();
    const verifyRsa = jwtVerifier({ publicKey: pem, algorithms: ["RS256"] });
    expect(await verifyRsa(await sign("RS256", rsa.privateKey))).toMatchObject({ sub: "svc" });
    expect(await verifyRsa(await sign("ES256", ec.privateKey))).toBeNull();
  });

  it("verifies ES256 with a JWK, and with a KeyObject", async () => {
    const jwk = await exportJWK(ec.publicKey);
    const token = await sign("ES256", ec.privateKey);
    expect(await jwtVerifier({ publicKey: jwk, algorithms: ["ES256"] })(token)).toMatchObject({ sub: "svc" });
    expect(await jwtVerifier({ publicKey: ec.publicKey, algorithms: ["ES256"] })(token)).toMatchObject({
      sub: "svc",
    });
  });

  it("verifies PS256 with a PEM public key, and EdDSA with a PEM and a KeyObject", async () => {
    const rsaPem = rsa.publicKey.export({ type: "spki", format: "pem" }).toString();
    const verifyPss = jwtVerifier({ publicKey: rsaPem, algorithms: ["PS256"] });
    expect(await verifyPss(await sign("PS256", rsa.privateKey))).toMatchObject({ sub: "svc" });
    expect(await verifyPss(await sign("RS256", rsa.privateKey))).toBeNull();
    const ed = generateKeyPairSync("ed25519");
    const edToken = await sign("EdDSA", ed.privateKey);
    const edPem = ed.publicKey.export({ type: "spki", format: "pem" }).toString();
    for (const publicKey of [edPem, ed.publicKey]) {
      expect(await jwtVerifier({ publicKey, algorithms: ["EdDSA"] })(edToken)).toMatchObject({ sub: "svc" });
    }
  });

  it("picks the key of a local JWKS by kid", async () => {
    const jwks = {
      keys: [
        { ...(await exportJWK(rsa.publicKey)), kid: "rsa-1", alg: "RS256" },
        { ...(await exportJWK(ec.publicKey)), kid: "ec-1", alg: "ES256" },
      ],
    };
    const verifyJwks = jwtVerifier({ jwks, algorithms: ["RS256", "ES256"] });
    expect(await verifyJwks(await sign("ES256", ec.privateKey, "ec-1"))).toMatchObject({ sub: "svc" });
    expect(await verifyJwks(await sign("RS256", rsa.privateKey, "rsa-1"))).toMatchObject({ sub: "svc" });
    expect(await verifyJwks(await sign("RS256", rsa.privateKey, "unknown"))).toBeNull();
  });

  it("refuses, as a bad token, one that names an accepted algorithm its key cannot serve", async () => {
    const pem = rsa.publicKey.export({ type: "spki", format: "pem" }).toString();
    const jwk = await exportJWK(rsa.publicKey);
    for (const publicKey of [pem, jwk]) {
      const verifyEither = jwtVerifier({ publicKey, algorithms: ["RS256", "ES256"] });
      expect(await verifyEither(await sign("ES256", ec.privateKey))).toBeNull();
      expect(await verifyEither(await sign("RS256", rsa.privateKey))).toMatchObject({ sub: "svc" });
    }
  });

  it("fails loudly, not with a 401, when its own key cannot be read", async () => {
    const broken = jwtVerifier({
      publicKey: "-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----",
      algorithms: ["RS256"],
    });
    await expect(broken(await sign("RS256", rsa.privateKey))).rejects.toThrow();
  });
});

describe("jwtVerifier's options, checked when it is made", () => {
  it.each([
    [{ secret: SECRET }, 'jwtVerifier needs the algorithms it accepts, such as algorithms: ["HS256"].'],
    [
      { secret: SECRET, algorithms: ["none"] },
      'jwtVerifier: "none" is not an algorithm; an unsigned token is never accepted.',
    ],
    [{ algorithms: ["HS256"] }, "jwtVerifier needs exactly one of secret, publicKey and jwks."],
    [
      { secret: SECRET, jwks: { keys: [] }, algorithms: ["HS256"] },
      "jwtVerifier needs exactly one of secret, publicKey and jwks.",
    ],
    [
      { secret: "short", algorithms: ["HS256"] },
      "jwtVerifier: the secret must be at least 32 bytes for HS256 (RFC 7518 §3.2: as long as the hash).",
    ],
    // SECRET is 38 bytes: enough for HS256, not for HS384 (48) or HS512 (64), nor for a list with them.
    [
      { secret: SECRET, algorithms: ["HS384"] },
      "jwtVerifier: the secret must be at least 48 bytes for HS384 (RFC 7518 §3.2: as long as the hash).",
    ],
    [
      { secret: SECRET, algorithms: ["HS256", "HS512"] },
      "jwtVerifier: the secret must be at least 64 bytes for HS512 (RFC 7518 §3.2: as long as the hash).",
    ],
    [
      { secret: SECRET, algorithms: ["RS256"] },
      "jwtVerifier: a secret verifies HS256, HS384 or HS512 only, not RS256.",
    ],
    [
      { jwks: { keys: [] }, algorithms: ["HS256"] },
      "jwtVerifier: HS algorithms need a secret, not a public key.",
    ],
  ])("refuses %j", (options, message) => {
    expect(() => jwtVerifier(options as never)).toThrow(new TypeError(message));
  });
});

describe("a JWT bearer scheme over the request path", () => {
  const bearer = httpBearer({ bearerFormat: "JWT", verify });
  const app = createApp({
    routes: [
      path("/me", {
        endpoint: endpoint({
          params: { claims: p.Security(bearer, { scopes: ["enroll:read"] }) },
          returns: JsonResponse,
          handler: (_request, { claims }) => new JsonResponse({ sub: claims.sub }),
        }),
      }),
    ],
  });

  it("answers with the claims of a valid token, and 401 for an expired one without echoing it", async () => {
    const client = testClient(app);
    expect(
      (await client.get("/me", { headers: { authorization: `Bearer ${await hs256()}` } })).json(),
    ).toEqual({
      sub: "ann",
    });
    const expired = await hs256({}, (jwt) => jwt.setExpirationTime(now() - 60));
    const response = await client.get("/me", { headers: { authorization: `Bearer ${expired}` } });
    expect([response.status, response.json()]).toEqual([401, { detail: "Invalid bearer token" }]);
    expect(response.text).not.toContain(expired.split(".")[1]);
  });

  it("answers 403 for a valid token without the scope", async () => {
    const token = await hs256({ scope: "other" });
    const response = await testClient(app).get("/me", { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(403);
  });
});

describe("loading jose", () => {
  it("waits for the first token: answering without one, or with an API key, never loads it", async () => {
    // A fresh process whose module hooks see every file jose is loaded from.
    const script = `
      import { registerHooks } from "node:module";
      const jose = () => seen.some((url) => url.includes("/node_modules/jose/"));
      const seen = [];
      registerHooks({ resolve: (specifier, context, next) => { const found = next(specifier, context); seen.push(found.url); return found; } });
      const { createApp } = await import("unruffled");
      const { JsonResponse } = await import("unruffled/http");
      const { endpoint, p, path } = await import("unruffled/route");
      const { apiKeyHeader, httpBearer, jwtVerifier } = await import("unruffled/security");
      const { testClient } = await import("unruffled/testing");
      const bearer = httpBearer({ verify: jwtVerifier({ secret: ${JSON.stringify(SECRET)}, algorithms: ["HS256"] }) });
      const key = apiKeyHeader({ header: "x-api-key", verify: (k) => (k === "k-1" ? { partner: "acme" } : null) });
      const open = (scheme) => endpoint({ params: { who: p.Security(scheme) }, returns: JsonResponse, handler: () => new JsonResponse({ ok: true }) });
      const client = testClient(createApp({ routes: [path("/me", { endpoint: open(bearer) }), path("/partner", { endpoint: open(key) })] }));
      const steps = { built: jose() };
      steps.withoutToken = [(await client.get("/me")).status, jose()];
      steps.apiKey = [(await client.get("/partner", { headers: { "x-api-key": "k-1" } })).status, jose()];
      steps.token = [(await client.get("/me", { headers: { authorization: "Bearer " + process.env.TOKEN } })).status, jose()];
      console.log(JSON.stringify(steps));
    `;
    const root = fileURLToPath(new URL("../../../../", import.meta.url));
    const token = await hs256();
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ["--conditions=source", "--input-type=module", "-e", script],
        { cwd: root, env: { ...process.env, TOKEN: token } },
        (error, out) => (error ? reject(error) : resolve(out)),
      );
    });
    expect(JSON.parse(stdout)).toEqual({
      built: false,
      withoutToken: [401, false],
      apiKey: [200, false],
      token: [200, true],
    });
  });
});
