// The request logic the endpoints share, as dependencies: documented, validated and overridable in
// tests like any parameter.
import { timingSafeEqual } from "node:crypto";
import { dependency, p } from "unruffled/route";
import { httpBearer } from "unruffled/security";
import { z } from "zod";
import type { Database } from "./db/index.ts";
import type { EnrollRequest } from "./request.ts";

/** One page of a list: `page` from 1, `size` items (the seed's two query parameters). */
export const paging = dependency({
  params: {
    page: p.Query(z.int(), { default: 1, ge: 1, description: "Page number, from 1" }),
    size: p.Query(z.int(), { default: 10, ge: 1, le: 100, description: "Items per page" }),
  },
  resolve: (_request, { page, size }) => ({ page, size }),
});

/** The app's database. Tests override it to hand endpoints another one. */
export const database = dependency({
  resolve: (request: EnrollRequest): Database => request.database,
});

/** The administrator, by the bearer token that opens the write endpoints outside the seed. */
export const adminBearer = httpBearer({
  name: "adminToken",
  description: "The admin token: ENROLL_ADMIN_TOKEN, or the one the service printed at its first start.",
  verify: (token, request: EnrollRequest) =>
    request.adminToken !== undefined && sameText(token, request.adminToken)
      ? { role: "admin" as const }
      : null,
});

/** Compares in constant time, so a wrong token's answer time does not tell how much of it was right. */
function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
