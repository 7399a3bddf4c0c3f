import { ForbiddenError, UnauthorizedError, ValueError } from "../../errors.ts";
import { isDeepStrictEqual } from "../../node-builtins.ts";
import type { BuiltRoute } from "../../route/analyse/build-routes.ts";
import { ResponseSpec } from "../../route/declare/response-spec.ts";
import type { SecuritySchemeObject } from "../../route/declare/security-scheme.ts";
import type { EndpointDescription } from "../../route/description.ts";
import type { SecurityRequirementObject } from "../types.ts";
import { HttpErrorSchema } from "./error-schemas.ts";

/** What the app's exception handlers answer for an error class, as they document it. */
export interface DocumentedErrors {
  /** `problemFallback`: what the default handler answers with `ERRORS.format: "problem"`, when it is not the fallback as problem details. */
  responsesFor(
    errorClass: Function,
    fallback: readonly ResponseSpec[],
    problemFallback?: readonly ResponseSpec[],
  ): readonly ResponseSpec[];
}

const CHALLENGE = { "WWW-Authenticate": "The authentication scheme to use, and why the credentials failed" };

/** What the default HTTP error handler answers without credentials, and without a scope. */
const UNAUTHORIZED = [
  new ResponseSpec({
    code: "401",
    model: HttpErrorSchema,
    description: "Not authenticated",
    headers: CHALLENGE,
  }),
];
const FORBIDDEN = [
  new ResponseSpec({ code: "403", model: HttpErrorSchema, description: "Not enough permissions" }),
];

/**
 * `components.securitySchemes`: every scheme a documented route needs, by name. Two schemes that
 * share a name but not their description are a `ValueError`: the document could name only one.
 *
 * @example securitySchemesOf(app.routes) // { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } }
 */
export function securitySchemesOf(
  routes: readonly Pick<BuiltRoute, "includeInSchema" | "endpointDescription">[],
): Record<string, SecuritySchemeObject> {
  const schemes: Record<string, SecuritySchemeObject> = {};
  for (const route of routes) {
    if (!route.includeInSchema) continue;
    for (const { scheme } of route.endpointDescription.security) {
      const known = schemes[scheme.name];
      if (known !== undefined && !isDeepStrictEqual(known, scheme.openapi)) {
        throw new ValueError(
          `Two security schemes are named "${scheme.name}" (the second used by ${route.endpointDescription.label}); give each scheme its own name.`,
        );
      }
      schemes[scheme.name] = scheme.openapi;
    }
  }
  return Object.fromEntries(
    Object.keys(schemes)
      .sort()
      .map((name) => [name, schemes[name]!]),
  );
}

/**
 * An operation's `security`: every scheme it needs, with their scopes, in one requirement; when
 * some are optional, a second requirement without them (`{}` when all are) says it may go without.
 * Undefined for an open operation.
 */
export function operationSecurity(description: EndpointDescription): SecurityRequirementObject[] | undefined {
  if (description.security.length === 0) return undefined;
  const all: SecurityRequirementObject = {};
  const required: SecurityRequirementObject = {};
  for (const { scheme, scopes, optional } of description.security) {
    all[scheme.name] = [...scopes];
    if (!optional) required[scheme.name] = [...scopes];
  }
  return description.security.some((requirement) => requirement.optional) ? [all, required] : [all];
}

/**
 * The answers a secured operation adds, as the app's handlers document them: a 401 unless every
 * scheme is optional, a 403 when a scope is required.
 */
export function securityResponses(
  description: EndpointDescription,
  errors: DocumentedErrors,
): readonly ResponseSpec[] {
  const responses: ResponseSpec[] = [];
  if (description.security.some((requirement) => !requirement.optional)) {
    responses.push(...errors.responsesFor(UnauthorizedError, UNAUTHORIZED));
  }
  if (description.security.some((requirement) => requirement.scopes.length > 0)) {
    responses.push(...errors.responsesFor(ForbiddenError, FORBIDDEN));
  }
  return responses;
}
