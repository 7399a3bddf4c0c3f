// An app that uses every kind of scheme, for the document tests and the validators.
import { type AppOptions, createApp } from "unruffled";
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

const refuse = () => null;

export const schemes = {
  bearer: httpBearer({ bearerFormat: "JWT", description: "A token from /token", verify: refuse }),
  basic: httpBasic({ realm: "admin", verify: refuse }),
  header: apiKeyHeader({ name: "headerKey", header: "X-API-Key", verify: refuse }),
  query: apiKeyQuery({ name: "queryKey", query: "api_key", verify: refuse }),
  cookie: apiKeyCookie({ name: "sessionCookie", cookie: "session", verify: refuse }),
  password: oauth2Password({
    tokenUrl: "/token",
    refreshUrl: "/token/refresh",
    scopes: { "items:read": "Read items", "items:write": "Change items" },
    verify: refuse,
  }),
  clientCredentials: oauth2ClientCredentials({
    name: "services",
    tokenUrl: "https://auth.example.com/token",
    scopes: { "items:read": "Read items" },
    verify: refuse,
  }),
  openId: openIdConnect({
    openIdConnectUrl: "https://id.example.com/.well-known/openid-configuration",
    verify: refuse,
  }),
};

const answer = (name: string) =>
  endpoint({ name, returns: JsonResponse, handler: () => new JsonResponse({ name }) });

const currentUser = dependency({
  params: { user: p.Security(schemes.password, { scopes: ["items:read"] }) },
  resolve: (_request, { user }) => user,
});

export function securedApp(options: Partial<AppOptions> = {}) {
  return createApp({
    ...options,
    settings: { OPENAPI: { info: { title: "Secured", version: "1.0.0" } } },
    routes: options.routes ?? [
      path("/open", { endpoint: answer("open") }),
      path("/bearer", {
        endpoint: endpoint({
          name: "bearer",
          params: { user: p.Security(schemes.bearer) },
          returns: JsonResponse,
          handler: () => new JsonResponse({}),
        }),
      }),
      path("/maybe", {
        endpoint: endpoint({
          name: "maybe",
          params: { user: p.Security(schemes.bearer, { optional: true }) },
          returns: JsonResponse,
          handler: () => new JsonResponse({}),
        }),
      }),
      path("/write", {
        endpoint: endpoint({
          name: "write",
          params: {
            user: p.Depends(currentUser),
            again: p.Security(schemes.password, { scopes: ["items:write"] }),
          },
          returns: JsonResponse,
          handler: () => new JsonResponse({}),
        }),
      }),
      path("/keys", {
        dependencies: [p.Security(schemes.header), p.Security(schemes.query), p.Security(schemes.cookie)],
        routes: [path("/all", { endpoint: answer("keys") })],
      }),
      path("/basic", { dependencies: [p.Security(schemes.basic)], endpoint: answer("basic") }),
      path("/services", {
        dependencies: [p.Security(schemes.clientCredentials, { scopes: ["items:read"] })],
        endpoint: answer("services"),
      }),
      path("/oidc", { dependencies: [p.Security(schemes.openId)], endpoint: answer("oidc") }),
    ],
  });
}
