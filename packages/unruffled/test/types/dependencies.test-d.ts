// Type tests for dependencies and security: checked by `tsc` (npm run typecheck), never run.

import { createApp } from "unruffled";
import { type HttpRequest, JsonResponse } from "unruffled/http";
import { type DependsParam, dependency, endpoint, p, path } from "unruffled/route";
import { httpBearer, type JwtClaims, jwtVerifier } from "unruffled/security";
import { startServer, testClient } from "unruffled/testing";
import { expectTypeOf } from "vitest";
import { z } from "zod";

const paging = dependency({
  params: { page: p.Query(z.int(), { default: 1 }), size: p.Query(z.int(), { default: 10 }) },
  resolve: (_request, { page, size }) => {
    expectTypeOf(page).toEqualTypeOf<number>();
    return { offset: (page - 1) * size, limit: size };
  },
});

const database = dependency({ resolve: async () => ({ query: (sql: string) => sql.length }) });

const transaction = dependency({
  params: { db: p.Depends(database) },
  async *resolve(_request, { db }) {
    expectTypeOf(db.query).toEqualTypeOf<(sql: string) => number>();
    yield { commit: (): boolean => true };
  },
});

const syncGenerator = dependency({
  *resolve() {
    yield 42 as const;
  },
});

const bearer = httpBearer({ verify: (token) => (token === "ok" ? { name: "ann", admin: true } : null) });
const jwt = httpBearer({ verify: jwtVerifier({ secret: "x".repeat(32), algorithms: ["HS256"] }) });

// The handler's values are the dependencies' resolved outputs: awaited, or a generator's yield.
const listItems = endpoint({
  params: {
    paging: p.Depends(paging),
    tx: p.Depends(transaction),
    answer: p.Depends(syncGenerator),
    user: p.Security(bearer),
    maybe: p.Security(bearer, { optional: true }),
    claims: p.Security(jwt, { scopes: ["read"] }),
    search: p.Query(z.string().optional()),
  },
  returns: JsonResponse,
  handler(request, values) {
    expectTypeOf(request).toEqualTypeOf<HttpRequest>();
    expectTypeOf(values.paging).toEqualTypeOf<{ offset: number; limit: number }>();
    expectTypeOf(values.tx).toEqualTypeOf<{ commit: () => boolean }>();
    expectTypeOf(values.answer).toEqualTypeOf<42>();
    expectTypeOf(values.user).toEqualTypeOf<{ name: string; admin: boolean }>();
    expectTypeOf(values.maybe).toEqualTypeOf<{ name: string; admin: boolean } | undefined>();
    expectTypeOf(values.claims).toEqualTypeOf<JwtClaims>();
    expectTypeOf(values.search).toEqualTypeOf<string | undefined>();
    return new JsonResponse({});
  },
});

endpoint({
  params: { paging: p.Depends(paging) },
  returns: JsonResponse,
  handler(_request, { paging }) {
    // @ts-expect-error: paging gives { offset, limit }, not page
    paging.page;
    return new JsonResponse({});
  },
});

// @ts-expect-error: p.Depends takes a dependency, not its resolve function
p.Depends(() => 1);

// p.Security of a dependency is its value, with scopes for its branch (FastAPI's Security(dependency)).
expectTypeOf(p.Security(paging, { scopes: ["read"] })).toEqualTypeOf<
  DependsParam<{ offset: number; limit: number }, typeof paging>
>();

// @ts-expect-error: p.Security takes a scheme or a dependency
p.Security(() => 1);

// @ts-expect-error: a dependency needs resolve
dependency({ params: {} });

const app = createApp({
  routes: [path("/items", { endpoint: listItems, dependencies: [paging, p.Security(bearer)] })],
});

// Overrides must resolve to what the original resolves to.
const fakePaging = dependency({ resolve: () => ({ offset: 0, limit: 5 }) });
testClient(app, { overrides: [[paging, fakePaging]] });
testClient(app, { overrides: [[bearer, dependency({ resolve: () => ({ name: "test", admin: false }) })]] });
// @ts-expect-error: the replacement resolves to a string, paging to { offset, limit }
testClient(app, { overrides: [[paging, dependency({ resolve: () => "nope" })]] });
// @ts-expect-error: a scheme's replacement must give its principal
testClient(app, { overrides: [[bearer, dependency({ resolve: () => 7 })]] });

// startServer checks its overrides the same way.
void startServer(app, { overrides: [[paging, fakePaging]] });
void startServer(app, {
  overrides: [[bearer, dependency({ resolve: () => ({ name: "test", admin: false }) })]],
});
// @ts-expect-error: the replacement resolves to a string, paging to { offset, limit }
void startServer(app, { overrides: [[paging, dependency({ resolve: () => "nope" })]] });
// @ts-expect-error: a scheme's replacement must give its principal
void startServer(app, { overrides: [[bearer, dependency({ resolve: () => 7 })]] });

// app.withOverrides checks them the same way.
app.withOverrides([[paging, fakePaging]]);
app.withOverrides([[bearer, dependency({ resolve: () => ({ name: "test", admin: false }) })]]);
// @ts-expect-error: the replacement resolves to a string, paging to { offset, limit }
app.withOverrides([[paging, dependency({ resolve: () => "nope" })]]);
// @ts-expect-error: a scheme's replacement must give its principal
app.withOverrides([[bearer, dependency({ resolve: () => 7 })]]);

// The test client's call() takes the parameters of the endpoint's dependencies too.
const client = testClient(app);
void client.call(listItems, { page: 2, search: "ann" });
// @ts-expect-error: page is a number
void client.call(listItems, { page: "two" });
