import type { SecuritySchemeObject } from "../../route/declare/security-scheme.ts";

/**
 * An OpenAPI security scheme as AsyncAPI 3.0 writes it: `apiKey` is `httpApiKey`, OAuth 2 flows list
 * their `availableScopes`; `http` and `openIdConnect` read the same. AsyncAPI wants absolute URLs:
 * a relative one (`/token`) is resolved against `base` (the first OpenAPI server), when there is one.
 *
 * @example toAsyncApiSecurityScheme({ type: "apiKey", in: "header", name: "X-API-Key" }) // { type: "httpApiKey", in: "header", name: "X-API-Key" }
 */
export function toAsyncApiSecurityScheme(
  scheme: SecuritySchemeObject,
  base?: string,
): Record<string, unknown> {
  const openapi = scheme as Record<string, unknown>;
  const { type, description } = openapi;
  const result: Record<string, unknown> =
    type === "apiKey"
      ? { type: "httpApiKey", name: openapi.name, in: openapi.in }
      : type === "oauth2"
        ? { type: "oauth2", flows: flowsOf(openapi.flows as Record<string, Record<string, unknown>>, base) }
        : type === "openIdConnect"
          ? { type: "openIdConnect", openIdConnectUrl: absolute(openapi.openIdConnectUrl, base) }
          : definedOnly({ type, scheme: openapi.scheme, bearerFormat: openapi.bearerFormat });
  if (description !== undefined) result.description = description;
  return result;
}

function flowsOf(
  flows: Record<string, Record<string, unknown>>,
  base: string | undefined,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [name, flow] of Object.entries(flows)) {
    const { scopes, ...rest } = flow;
    for (const key of URL_KEYS) if (rest[key] !== undefined) rest[key] = absolute(rest[key], base);
    result[name] = { ...definedOnly(rest), availableScopes: scopes ?? {} };
  }
  return result;
}

const URL_KEYS = ["authorizationUrl", "tokenUrl", "refreshUrl"];

function absolute(url: unknown, base: string | undefined): unknown {
  if (typeof url !== "string" || base === undefined || URL.canParse(url) || !URL.canParse(url, base))
    return url;
  return new URL(url, base).href;
}

function definedOnly(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
