import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { dependency, endpoint, p, path } from "unruffled/route";
import {
  apiKeyCookie,
  apiKeyHeader,
  apiKeyQuery,
  httpBasic,
  httpBearer,
  oauth2ClientCredentials,
  oauth2Password,
  openIdConnect,
} from "unruffled/security";
import { testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";

const TOKEN = "s3cret-t0ken";
const users: Record<string, { name: string; scope: string }> = {
  [TOKEN]: { name: "ann", scope: "enroll:read enroll:write" },
  "reader-token": { name: "bob", scope: "enroll:read" },
};

const bearer = httpBearer({ bearerFormat: "opaque", verify: (token) => users[token] ?? null });

/** An app whose `/me` answers the principal a scheme verified (or `anonymous` when optional). */
function appWith(scheme: Parameters<typeof p.Security>[0], options: Parameters<typeof p.Security>[1] = {}) {
  return createApp({
    routes: [
      path("/me", {
        endpoint: endpoint({
          params: { user: p.Security(scheme, options) },
          returns: JsonResponse,
          handler: (_request, { user }) => new JsonResponse({ user: user ?? "anonymous" }),
        }),
      }),
    ],
  });
}

describe("httpBearer", () => {
  const client = testClient(appWith(bearer));

  it("hands the handler the principal verify returned", async () => {
    const response = await client.get("/me", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect([response.status, response.json()]).toEqual([200, { user: users[TOKEN] }]);
  });

  it("reads the scheme name without regard to case", async () => {
    expect((await client.get("/me", { headers: { authorization: `bearer ${TOKEN}` } })).status).toBe(200);
  });

  it("answers 401 with WWW-Authenticate: Bearer without the header", async () => {
    const response = await client.get("/me");
    expect([response.status, response.headers.get("www-authenticate"), response.json()]).toEqual([
      401,
      "Bearer",
      { detail: "Not authenticated: send the header Authorization: Bearer <token>" },
    ]);
  });

  it.each([
    ["an empty bearer", "Bearer "],
    ["a bare scheme", "Bearer"],
    ["a token with spaces", `Bearer ${TOKEN} extra`],
  ])("answers 401 invalid_token for %s, never echoing it", async (_case, header) => {
    const response = await client.get("/me", { headers: { authorization: header } });
    expect([response.status, response.headers.get("www-authenticate"), response.json()]).toEqual([
      401,
      'Bearer error="invalid_token"',
      { detail: "Not authenticated: the Authorization header is not a bearer token" },
    ]);
    expect(response.text).not.toContain(TOKEN);
  });

  // RFC 6750 §3.1: a client that used an unsupported method gets the challenge without an error code.
  it.each([
    ["another scheme", `Basic ${TOKEN}`],
    ["no scheme", TOKEN],
  ])("answers 401 with the bare challenge for %s, never echoing it", async (_case, header) => {
    const response = await client.get("/me", { headers: { authorization: header } });
    expect([response.status, response.headers.get("www-authenticate"), response.json()]).toEqual([
      401,
      "Bearer",
      { detail: "Not authenticated: the Authorization header is not a bearer token" },
    ]);
    expect(response.text).not.toContain(TOKEN);
  });

  it("answers 401 invalid_token for a token verify refuses", async () => {
    const response = await client.get("/me", { headers: { authorization: "Bearer forged" } });
    expect([response.status, response.headers.get("www-authenticate"), response.json()]).toEqual([
      401,
      'Bearer error="invalid_token"',
      { detail: "Invalid bearer token" },
    ]);
  });

  it("refuses as well when verify answers undefined rather than null", async () => {
    const lookup = httpBearer({ verify: (token) => new Map([[TOKEN, { name: "ann" }]]).get(token) });
    const response = await testClient(appWith(lookup)).get("/me", {
      headers: { authorization: "Bearer other" },
    });
    expect([response.status, response.headers.get("www-authenticate"), response.json()]).toEqual([
      401,
      'Bearer error="invalid_token"',
      { detail: "Invalid bearer token" },
    ]);
  });

  it("waits for a verify that returns a promise", async () => {
    const slow = httpBearer({ verify: async (token) => (token === TOKEN ? { name: "ann" } : null) });
    const slowClient = testClient(appWith(slow));
    expect((await slowClient.get("/me", { headers: { authorization: `Bearer ${TOKEN}` } })).json()).toEqual({
      user: { name: "ann" },
    });
    expect((await slowClient.get("/me", { headers: { authorization: "Bearer no" } })).status).toBe(401);
  });
});

describe("p.Security options", () => {
  it("optional: the principal, or undefined without credentials or with refused ones", async () => {
    const client = testClient(appWith(bearer, { optional: true }));
    expect((await client.get("/me")).json()).toEqual({ user: "anonymous" });
    expect((await client.get("/me", { headers: { authorization: "Bearer forged" } })).json()).toEqual({
      user: "anonymous",
    });
    expect((await client.get("/me", { headers: { authorization: `Bearer ${TOKEN}` } })).json()).toEqual({
      user: users[TOKEN],
    });
  });

  it("scopes: 403 naming the scope the principal lacks", async () => {
    const client = testClient(appWith(bearer, { scopes: ["enroll:write"] }));
    expect((await client.get("/me", { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    const refused = await client.get("/me", { headers: { authorization: "Bearer reader-token" } });
    expect([refused.status, refused.json()]).toEqual([
      403,
      { detail: "Not enough permissions: the scope enroll:write is required" },
    ]);
  });

  it("scopes from a route and an endpoint add up, and the scheme verifies once", async () => {
    let verified = 0;
    const counting = httpBearer({
      verify: (token) => {
        verified++;
        return users[token] ?? null;
      },
    });
    const app = createApp({
      routes: [
        path("/admin", {
          dependencies: [p.Security(counting, { scopes: ["enroll:read"] })],
          routes: [
            path("/write", {
              endpoint: endpoint({
                params: { user: p.Security(counting, { scopes: ["enroll:write"] }) },
                returns: JsonResponse,
                handler: (_request, { user }) => new JsonResponse({ user: user.name }),
              }),
            }),
          ],
        }),
      ],
    });
    const client = testClient(app);
    expect(
      (await client.get("/admin/write", { headers: { authorization: `Bearer ${TOKEN}` } })).json(),
    ).toEqual({
      user: "ann",
    });
    expect(verified).toBe(1);
    const refused = await client.get("/admin/write", { headers: { authorization: "Bearer reader-token" } });
    expect(refused.json()).toEqual({ detail: "Not enough permissions: the scope enroll:write is required" });
  });

  it("authenticates before the parameters are read: no 422 for a client without credentials", async () => {
    const app = createApp({
      routes: [
        path("/items", {
          endpoint: endpoint({
            params: { user: p.Security(bearer), page: p.Query(z.int()) },
            returns: JsonResponse,
            handler: (_request, { page }) => new JsonResponse({ page }),
          }),
        }),
      ],
    });
    const response = await testClient(app).get("/items?page=oops");
    expect(response.status).toBe(401);
  });

  it("authenticates before the body is read: 401, not 400, 413, 415 or 422, for a client without credentials", async () => {
    const app = createApp({
      settings: { LIMITS: { body_size: 64 } },
      routes: [
        path("/notes", {
          methods: ["POST"],
          endpoint: endpoint({
            params: { user: p.Security(bearer), body: p.Json(z.object({ text: z.string() })) },
            returns: JsonResponse,
            handler: (_request, { body }) => new JsonResponse(body),
          }),
        }),
      ],
    });
    const client = testClient(app);
    const bodies: [string, string][] = [
      ["application/json", '{"text":'],
      ["application/json", JSON.stringify({ text: "x".repeat(100) })],
      ["application/xml", "<text/>"],
      ["application/json", '{"text":5}'],
    ];
    for (const [type, body] of bodies) {
      const response = await client.post("/notes", { headers: { "content-type": type }, body });
      expect([response.status, response.json()]).toEqual([
        401,
        { detail: "Not authenticated: send the header Authorization: Bearer <token>" },
      ]);
    }
  });
});

describe("a principal's scopes", () => {
  it("are by default its scope claim (space-separated), or its scp or scopes (a list, or space-separated)", async () => {
    const principals: Record<string, Record<string, unknown>> = {
      scope: { scope: "notes:read notes:write" },
      scp: { scp: ["notes:read", "notes:write"] },
      "scopes-list": { scopes: ["notes:write"] },
      "scopes-text": { scopes: "notes:read notes:write" },
      "scp-lacking": { scp: ["notes:read"] },
      none: { name: "no claim" },
    };
    const claims = httpBearer({ verify: (token) => principals[token] ?? null });
    const client = testClient(appWith(claims, { scopes: ["notes:write"] }));
    const statusFor = async (token: string) =>
      (await client.get("/me", { headers: { authorization: `Bearer ${token}` } })).status;
    expect(
      Object.fromEntries(
        await Promise.all(Object.keys(principals).map(async (t) => [t, await statusFor(t)])),
      ),
    ).toEqual({
      scope: 200,
      scp: 200,
      "scopes-list": 200,
      "scopes-text": 200,
      "scp-lacking": 403,
      none: 403,
    });
  });
});

describe("httpBasic", () => {
  const basic = httpBasic({
    realm: "admin",
    verify: ({ username, password }) =>
      username === "ann" && password === "pa:ss wörd" ? { name: username } : null,
  });
  const client = testClient(appWith(basic));
  const encode = (text: string) => `Basic ${Buffer.from(text).toString("base64")}`;

  it("decodes user name and password (a colon and non-ASCII in the password are kept)", async () => {
    const response = await client.get("/me", { headers: { authorization: encode("ann:pa:ss wörd") } });
    expect(response.json()).toEqual({ user: { name: "ann" } });
  });

  it("answers 401 with the realm in the challenge", async () => {
    const response = await client.get("/me");
    expect([response.status, response.headers.get("www-authenticate")]).toEqual([
      401,
      'Basic realm="admin", charset="UTF-8"',
    ]);
  });

  it.each([
    ["wrong password", encode("ann:nope"), "Invalid user name or password"],
    [
      "no colon",
      encode("ann"),
      "Not authenticated: the Authorization header does not hold basic credentials",
    ],
    [
      "not base64",
      "Basic !!!notbase64",
      "Not authenticated: the Authorization header does not hold basic credentials",
    ],
  ])("answers 401 for %s", async (_case, header, message) => {
    const response = await client.get("/me", { headers: { authorization: header } });
    expect([response.status, response.json()]).toEqual([401, { detail: message }]);
  });

  it("answers 403 naming the scope the user lacks, through scopesOf", async () => {
    const roles: Record<string, string[]> = { ann: ["admin"], bob: [] };
    const withRoles = httpBasic({
      verify: ({ username, password }) => (password === "pw" && username in roles ? { username } : null),
      scopesOf: ({ username }) => roles[username]!,
    });
    const client = testClient(appWith(withRoles, { scopes: ["admin"] }));
    expect((await client.get("/me", { headers: { authorization: encode("ann:pw") } })).json()).toEqual({
      user: { username: "ann" },
    });
    const refused = await client.get("/me", { headers: { authorization: encode("bob:pw") } });
    expect([refused.status, refused.headers.get("www-authenticate"), refused.json()]).toEqual([
      403,
      null,
      { detail: "Not enough permissions: the scope admin is required" },
    ]);
  });
});

describe("API keys", () => {
  const verify = (key: string) => (key === TOKEN ? { service: "billing" } : null);

  it("in a header", async () => {
    const client = testClient(appWith(apiKeyHeader({ header: "X-API-Key", verify })));
    expect((await client.get("/me", { headers: { "x-api-key": TOKEN } })).json()).toEqual({
      user: { service: "billing" },
    });
    const missing = await client.get("/me");
    expect([missing.status, missing.headers.get("www-authenticate"), missing.json()]).toEqual([
      401,
      'APIKey header="X-API-Key"',
      { detail: "Not authenticated: send the API key in the X-API-Key header" },
    ]);
    const wrong = await client.get("/me", { headers: { "x-api-key": "guess" } });
    expect([wrong.status, wrong.json()]).toEqual([401, { detail: "Invalid API key" }]);
  });

  it("in a query parameter", async () => {
    const client = testClient(appWith(apiKeyQuery({ query: "api_key", verify })));
    expect((await client.get(`/me?api_key=${TOKEN}`)).json()).toEqual({ user: { service: "billing" } });
    const missing = { detail: "Not authenticated: send the API key in the query parameter api_key" };
    for (const at of ["/me", "/me?api_key="]) {
      const response = await client.get(at);
      expect([response.status, response.headers.get("www-authenticate"), response.json()]).toEqual([
        401,
        'APIKey query="api_key"',
        missing,
      ]);
    }
    const wrong = await client.get("/me?api_key=guess");
    expect([wrong.status, wrong.headers.get("www-authenticate"), wrong.json()]).toEqual([
      401,
      'APIKey query="api_key"',
      { detail: "Invalid API key" },
    ]);
  });

  it("in a cookie", async () => {
    const client = testClient(appWith(apiKeyCookie({ cookie: "session", verify })));
    expect((await client.get("/me", { cookies: { session: TOKEN } })).json()).toEqual({
      user: { service: "billing" },
    });
    const missing = await client.get("/me");
    expect([missing.status, missing.headers.get("www-authenticate"), missing.json()]).toEqual([
      401,
      'APIKey cookie="session"',
      { detail: "Not authenticated: send the API key in the cookie session" },
    ]);
    const stale = await client.get("/me", { cookies: { session: "stale" } });
    expect([stale.status, stale.headers.get("www-authenticate"), stale.json()]).toEqual([
      401,
      'APIKey cookie="session"',
      { detail: "Invalid API key" },
    ]);
  });

  it("answer 403 naming the scope the key's principal lacks", async () => {
    const keys: Record<string, { service: string; scopes: string[] }> = {
      [TOKEN]: { service: "billing", scopes: ["invoices:write"] },
      "read-key": { service: "reports", scopes: ["invoices:read"] },
    };
    const scheme = apiKeyHeader({ header: "X-API-Key", verify: (key) => keys[key] ?? null });
    const client = testClient(appWith(scheme, { scopes: ["invoices:write"] }));
    expect((await client.get("/me", { headers: { "x-api-key": TOKEN } })).status).toBe(200);
    const refused = await client.get("/me", { headers: { "x-api-key": "read-key" } });
    expect([refused.status, refused.headers.get("www-authenticate"), refused.json()]).toEqual([
      403,
      null,
      { detail: "Not enough permissions: the scope invoices:write is required" },
    ]);
  });
});

describe("OAuth 2 and OpenID Connect", () => {
  it.each([
    [
      "password flow",
      oauth2Password({
        tokenUrl: "/token",
        scopes: { "enroll:write": "Change" },
        verify: (token) => users[token] ?? null,
      }),
    ],
    [
      "client credentials",
      oauth2ClientCredentials({ tokenUrl: "/token", verify: (token) => users[token] ?? null }),
    ],
    [
      "OpenID Connect",
      openIdConnect({
        openIdConnectUrl: "https://id.example.com/.well-known/openid-configuration",
        verify: (token) => users[token] ?? null,
      }),
    ],
  ])("%s: a bearer token, with scopes checked", async (_flow, scheme) => {
    const client = testClient(appWith(scheme, { scopes: ["enroll:write"] }));
    expect((await client.get("/me", { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    expect((await client.get("/me", { headers: { authorization: "Bearer reader-token" } })).status).toBe(403);
    const missing = await client.get("/me");
    expect([missing.status, missing.headers.get("www-authenticate")]).toEqual([401, "Bearer"]);
  });
});

describe("making a scheme", () => {
  it("refuses a scheme without verify, or with a name the document cannot hold", () => {
    expect(() => httpBearer({} as never)).toThrow(
      new TypeError("httpBearer({ verify }) needs a verify function."),
    );
    expect(() => httpBearer({ name: "my scheme", verify: () => null })).toThrow(
      'A security scheme\'s name is letters, digits, ".", "_" or "-", got "my scheme".',
    );
    expect(() => apiKeyHeader({ header: "", verify: () => null })).toThrow(
      new TypeError("apiKeyHeader({ header }) needs the name of the header that carries the key."),
    );
    expect(() => oauth2Password({ tokenUrl: "", verify: () => null })).toThrow(
      new TypeError("oauth2Password({ tokenUrl }) needs the URL where clients get a token."),
    );
  });

  it("names each scheme by default: bearerAuth, basicAuth, apiKey, oauth2, openIdConnect", () => {
    const verify = () => null;
    const schemes = [
      httpBearer({ verify }),
      httpBasic({ verify }),
      apiKeyHeader({ header: "x-api-key", verify }),
      apiKeyQuery({ query: "api_key", verify }),
      apiKeyCookie({ cookie: "session", verify }),
      oauth2Password({ tokenUrl: "/token", scopes: {}, verify }),
      oauth2ClientCredentials({ tokenUrl: "/token", scopes: {}, verify }),
      openIdConnect({ openIdConnectUrl: "https://id.example.com/.well-known/openid-configuration", verify }),
    ];
    expect(schemes.map((scheme) => scheme.name)).toEqual([
      "bearerAuth",
      "basicAuth",
      "apiKey",
      "apiKey",
      "apiKey",
      "oauth2",
      "oauth2",
      "openIdConnect",
    ]);
  });

  it("p.Security of something that is not a scheme is refused when the app is built", () => {
    expect(() => appWith({ name: "fake" } as never)).toThrow(
      'endpoint "get_me" (GET /me), parameter "user": p.Security takes a scheme from unruffled/security, not an object (name).',
    );
  });
});

import { z } from "zod";

describe("audit: docs/security.md, schemes are checked before the parameters are read", () => {
  const currentUser = dependency({
    name: "current_user",
    params: { user: p.Security(bearer, { scopes: ["enroll:write"] }), verbose: p.Query(z.boolean()) },
    resolve: (_request, { user }) => user,
  });
  const items = endpoint({
    params: { user: p.Depends(currentUser), page: p.Query(z.int()) },
    returns: JsonResponse,
    handler: (_request, { user, page }) => new JsonResponse({ user: user.name, page }),
  });
  const requireTenant = dependency({
    params: { tenant: p.Header(z.string(), { alias: "X-Tenant" }) },
    resolve: () => undefined,
  });
  const app = createApp({
    routes: [
      path("/items", { endpoint: items }),
      path("/tenant", {
        dependencies: [requireTenant, p.Security(bearer)],
        routes: [
          path("/report", {
            endpoint: endpoint({ returns: JsonResponse, handler: () => new JsonResponse({}) }),
          }),
        ],
      }),
    ],
  });
  const client = testClient(app);

  it("a scheme used by a dependency: 401, not 422, for a client without credentials and bad parameters", async () => {
    const response = await client.get("/items?page=oops&verbose=perhaps");
    expect([response.status, response.headers.get("www-authenticate"), response.json()]).toEqual([
      401,
      "Bearer",
      { detail: "Not authenticated: send the header Authorization: Bearer <token>" },
    ]);
  });

  it("a scheme of a group's dependencies, listed after one with a header: 401, not 422", async () => {
    const response = await client.get("/tenant/report");
    expect([response.status, response.headers.get("www-authenticate"), response.json()]).toEqual([
      401,
      "Bearer",
      { detail: "Not authenticated: send the header Authorization: Bearer <token>" },
    ]);
  });

  it("a principal without the scope: 403, not 422, whatever the parameters", async () => {
    const response = await client.get("/items?page=oops&verbose=perhaps", {
      headers: { authorization: "Bearer reader-token" },
    });
    expect([response.status, response.json()]).toEqual([
      403,
      { detail: "Not enough permissions: the scope enroll:write is required" },
    ]);
  });

  it("with credentials and the scope, the parameters are validated", async () => {
    const response = await client.get("/items?page=oops&verbose=on", {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect([response.status, response.json()]).toEqual([
      422,
      {
        detail: [
          {
            loc: ["query", "page"],
            msg: "Invalid input: expected number, received string",
            type: "invalid_type",
            input: "oops",
          },
        ],
      },
    ]);
  });
});

describe("audit: docs/security.md, every refusal names its scheme in WWW-Authenticate", () => {
  const lookup = (token: string) => users[token] ?? null;

  it.each([
    ["password flow", oauth2Password({ tokenUrl: "/token", scopes: {}, verify: lookup })],
    ["client credentials", oauth2ClientCredentials({ tokenUrl: "/token", verify: lookup })],
    [
      "OpenID Connect",
      openIdConnect({
        openIdConnectUrl: "https://id.example.com/.well-known/openid-configuration",
        verify: lookup,
      }),
    ],
  ])(
    "%s: invalid_token for a refused or malformed token, the bare Bearer for another scheme",
    async (_flow, scheme) => {
      const client = testClient(appWith(scheme));
      for (const [header, challenge, detail] of [
        ["Bearer forged", 'Bearer error="invalid_token"', "Invalid bearer token"],
        [
          "Bearer",
          'Bearer error="invalid_token"',
          "Not authenticated: the Authorization header is not a bearer token",
        ],
        [
          `Bearer ${TOKEN} extra`,
          'Bearer error="invalid_token"',
          "Not authenticated: the Authorization header is not a bearer token",
        ],
        [`Basic ${TOKEN}`, "Bearer", "Not authenticated: the Authorization header is not a bearer token"],
      ]) {
        const response = await client.get("/me", { headers: { authorization: header! } });
        expect([header, response.status, response.headers.get("www-authenticate"), response.json()]).toEqual([
          header,
          401,
          challenge,
          { detail },
        ]);
      }
    },
  );

  it("httpBasic: refused or malformed credentials get the realm's challenge too", async () => {
    const basic = httpBasic({ realm: "admin", verify: () => null });
    const client = testClient(appWith(basic));
    for (const header of [
      `Basic ${Buffer.from("ann:nope").toString("base64")}`,
      "Basic !!!notbase64",
      "Bearer x",
    ]) {
      const response = await client.get("/me", { headers: { authorization: header } });
      expect([header, response.status, response.headers.get("www-authenticate")]).toEqual([
        header,
        401,
        'Basic realm="admin", charset="UTF-8"',
      ]);
    }
  });

  it("an API key in a header that verify refuses gets the key's challenge", async () => {
    const client = testClient(appWith(apiKeyHeader({ header: "X-API-Key", verify: () => null })));
    const response = await client.get("/me", { headers: { "x-api-key": "guess" } });
    expect([response.status, response.headers.get("www-authenticate"), response.json()]).toEqual([
      401,
      'APIKey header="X-API-Key"',
      { detail: "Invalid API key" },
    ]);
  });
});

describe("audit: docs/security.md, one scheme used optionally and required", () => {
  const signedIn = dependency({
    params: { user: p.Security(bearer) },
    resolve: (_request, { user }) => user.name,
  });
  const app = createApp({
    routes: [
      path("/both", {
        endpoint: endpoint({
          params: { maybe: p.Security(bearer, { optional: true }), name: p.Depends(signedIn) },
          returns: JsonResponse,
          handler: (_request, { maybe, name }) => new JsonResponse({ maybe: maybe?.name ?? null, name }),
        }),
      }),
      path("/optional", {
        endpoint: endpoint({
          params: { maybe: p.Security(bearer, { optional: true, scopes: ["enroll:write"] }) },
          returns: JsonResponse,
          handler: (_request, { maybe }) => new JsonResponse({ maybe: maybe?.name ?? null }),
        }),
      }),
    ],
  });
  const client = testClient(app);

  it("the required use refuses what the optional use would let through", async () => {
    const missing = await client.get("/both");
    expect([missing.status, missing.headers.get("www-authenticate")]).toEqual([401, "Bearer"]);
    const forged = await client.get("/both", { headers: { authorization: "Bearer forged" } });
    expect([forged.status, forged.headers.get("www-authenticate")]).toEqual([
      401,
      'Bearer error="invalid_token"',
    ]);
    const fine = await client.get("/both", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect([fine.status, fine.json()]).toEqual([200, { maybe: "ann", name: "ann" }]);
  });

  it("the document offers no alternative without the scheme when one use requires it", () => {
    const paths = app.openapi().paths;
    expect(paths["/both"]!.get!.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(paths["/both"]!.get!.responses)).toEqual(["200", "401"]);
    expect(paths["/optional"]!.get!.security).toEqual([{ bearerAuth: ["enroll:write"] }, {}]);
  });

  it("an optional use with scopes: undefined without credentials, 403 for a principal without the scope", async () => {
    expect((await client.get("/optional")).json()).toEqual({ maybe: null });
    const reader = await client.get("/optional", { headers: { authorization: "Bearer reader-token" } });
    expect([reader.status, reader.json()]).toEqual([
      403,
      { detail: "Not enough permissions: the scope enroll:write is required" },
    ]);
  });
});
