// The scopes a verify or a dependency sees (FastAPI imports SecurityScopes from fastapi.security).
export { SecurityScopes } from "../route/declare/security-scheme.ts";
export type { ApiKeyOptions } from "./api-key.ts";
export { apiKeyCookie, apiKeyHeader, apiKeyQuery } from "./api-key.ts";
export type { BasicCredentials, HttpBasicOptions } from "./http-basic.ts";
export { httpBasic } from "./http-basic.ts";
export type { HttpBearerOptions } from "./http-bearer.ts";
export { httpBearer } from "./http-bearer.ts";
export type { JwtClaims, JwtVerifierOptions } from "./jwt.ts";
export { jwtVerifier } from "./jwt.ts";
export type { OAuth2Options } from "./oauth2.ts";
export { oauth2ClientCredentials, oauth2Password } from "./oauth2.ts";
export type { OpenIdConnectOptions } from "./openid-connect.ts";
export { openIdConnect } from "./openid-connect.ts";
export type { SchemeOptions, Verified } from "./scheme.ts";
export { defaultScopes } from "./scheme.ts";
