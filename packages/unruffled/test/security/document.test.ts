import { createApp, exceptionHandler, HttpError, ValueError } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { dependency, endpoint, p, path } from "unruffled/route";
import { httpBearer } from "unruffled/security";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DOCUMENTED_401 } from "../support/documented-401.ts";
import { securedApp } from "./secured-app.ts";

const document = securedApp().openapi();
const operation = (at: string) => document.paths[at]!.get!;

describe("the document of an app with security", () => {
  it("describes every scheme a route uses in components.securitySchemes, by name", () => {
    expect(document.components?.securitySchemes).toEqual({
      basicAuth: { type: "http", scheme: "basic" },
      bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "A token from /token" },
      headerKey: { type: "apiKey", in: "header", name: "X-API-Key" },
      oauth2: {
        type: "oauth2",
        flows: {
          password: {
            tokenUrl: "/token",
            refreshUrl: "/token/refresh",
            scopes: { "items:read": "Read items", "items:write": "Change items" },
          },
        },
      },
      openIdConnect: {
        type: "openIdConnect",
        openIdConnectUrl: "https://id.example.com/.well-known/openid-configuration",
      },
      queryKey: { type: "apiKey", in: "query", name: "api_key" },
      services: {
        type: "oauth2",
        flows: {
          clientCredentials: {
            tokenUrl: "https://auth.example.com/token",
            scopes: { "items:read": "Read items" },
          },
        },
      },
      sessionCookie: { type: "apiKey", in: "cookie", name: "session" },
    });
  });

  it("gives each secured operation its schemes with their scopes, and an open one none", () => {
    expect(operation("/open").security).toBeUndefined();
    expect(operation("/bearer").security).toEqual([{ bearerAuth: [] }]);
    expect(operation("/keys/all").security).toEqual([{ headerKey: [], queryKey: [], sessionCookie: [] }]);
    expect(operation("/services").security).toEqual([{ services: ["items:read"] }]);
  });

  it("adds up the scopes of a scheme used by a dependency and the endpoint", () => {
    expect(operation("/write").security).toEqual([{ oauth2: ["items:read", "items:write"] }]);
  });

  it("marks an optional scheme with an alternative that needs nothing", () => {
    expect(operation("/maybe").security).toEqual([{ bearerAuth: [] }, {}]);
  });

  it("documents the 401 (with its challenge) and, where a scope is needed, the 403", () => {
    expect(operation("/bearer").responses["401"]).toEqual(DOCUMENTED_401);
    expect(operation("/bearer").responses["403"]).toBeUndefined();
    expect(operation("/write").responses["403"]).toEqual({
      description: "Not enough permissions",
      content: { "application/json": { schema: { $ref: "#/components/schemas/HTTPError" } } },
    });
    expect(operation("/maybe").responses["401"]).toBeUndefined();
    expect(operation("/open").responses["401"]).toBeUndefined();
  });

  it("documents what the app's own handler answers instead, when it documents it", () => {
    const Envelope = z.object({ code: z.int(), message: z.string() }).meta({ id: "Envelope" });
    const app = securedApp({
      exceptionHandlers: [
        exceptionHandler(
          HttpError,
          (error) => new JsonResponse({ code: error.status, message: error.message }),
          {
            responses: [p.ResponseSpec({ code: "200", model: Envelope, description: "A failure" })],
          },
        ),
      ],
    });
    const responses = app.openapi().paths["/bearer"]!.get!.responses;
    expect(Object.keys(responses)).toEqual(["200"]);
    expect(responses["200"]!.content!["application/json"]!.schema).toEqual({
      anyOf: [{}, { $ref: "#/components/schemas/Envelope" }],
    });
  });

  it("refuses two different schemes with one name", () => {
    const first = httpBearer({ name: "auth", verify: () => null });
    const second = httpBearer({ name: "auth", bearerFormat: "JWT", verify: () => null });
    const use = (scheme: typeof first, at: string) =>
      path(at, {
        endpoint: endpoint({
          params: { user: p.Security(scheme) },
          returns: JsonResponse,
          handler: () => new JsonResponse({}),
        }),
      });
    const app = securedApp({ routes: [use(first, "/a"), use(second, "/b")] });
    expect(() => app.openapi()).toThrow(
      new ValueError(
        'Two security schemes are named "auth" (the second used by endpoint "get_b" (GET /b)); give each scheme its own name.',
      ),
    );
  });
});

describe("audit: docs/security.md and errors.md, the 403 wherever the scopes come from", () => {
  it("documents 401 and 403 where a group's scheme, or p.Security(dependency, { scopes }), asks for scopes", () => {
    const bearer = httpBearer({ verify: () => null });
    const currentUser = dependency({
      params: { user: p.Security(bearer) },
      resolve: (_request, { user }) => user,
    });
    const open = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({}) });
    const mine = endpoint({
      params: { user: p.Security(currentUser, { scopes: ["items"] }) },
      returns: JsonResponse,
      handler: () => new JsonResponse({}),
    });
    const paths = createApp({
      routes: [
        path("/admin", {
          dependencies: [p.Security(bearer, { scopes: ["admin"] })],
          routes: [path("/stats", { endpoint: open })],
        }),
        path("/mine", { endpoint: mine }),
      ],
    }).openapi().paths;
    for (const [at, scopes] of [
      ["/admin/stats", ["admin"]],
      ["/mine", ["items"]],
    ] as const) {
      const operation = paths[at]!.get!;
      expect([at, operation.security, Object.keys(operation.responses)]).toEqual([
        at,
        [{ bearerAuth: scopes }],
        ["200", "401", "403"],
      ]);
    }
  });
});
