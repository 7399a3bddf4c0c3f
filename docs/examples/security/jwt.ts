import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { httpBearer, jwtVerifier } from "unruffled/security";

const bearer = httpBearer({
  bearerFormat: "JWT",
  verify: jwtVerifier({
    secret: process.env.JWT_SECRET ?? "an-example-secret-of-at-least-32-bytes",
    algorithms: ["HS256"],
    issuer: "notes.example",
    audience: "notes-api",
    clockTolerance: 30,
  }),
});

const me = endpoint({
  params: { claims: p.Security(bearer, { scopes: ["notes:read"] }) },
  returns: JsonResponse,
  handler: (_request, { claims }) => new JsonResponse({ sub: claims.sub, scope: claims.scope }),
});

export const app = createApp({ routes: [path("/me", { endpoint: me })] });
