// p.SecurityScopes() and p.Security(dependency, { scopes }): FastAPI's SecurityScopes, with the
// behaviours its tests pin down (test_security_scopes*.py, test_dependency_security_overrides.py).
import { createApp, ForbiddenError, ValueError } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { dependency, endpoint, p, path, type SecurityScopes } from "unruffled/route";
import { httpBearer } from "unruffled/security";
import { testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";

const scopesSeen = dependency({
  name: "scopes_seen",
  params: { required: p.SecurityScopes() },
  resolve: (_request, { required }) => required.scopes,
});

function served(...routes: Parameters<typeof path>[]) {
  return testClient(createApp({ routes: routes.map((args) => path(...args)) }));
}

describe("SecurityScopes", () => {
  it("a dependency used with p.Security(dependency, { scopes }) sees those scopes", async () => {
    const getUser = dependency({
      name: "get_user",
      params: { required: p.SecurityScopes() },
      resolve: (_request, { required }) => ({
        user: "john",
        scopes: required.scopes,
        str: required.scopeStr,
      }),
    });
    const readUser = endpoint({
      params: { user: p.Security(getUser, { scopes: ["foo", "bar"] }) },
      returns: JsonResponse,
      handler: (_request, { user }) => new JsonResponse(user),
    });
    const response = await served(["/user", { endpoint: readUser }]).get("/user");
    expect(response.json()).toEqual({ user: "john", scopes: ["foo", "bar"], str: "foo bar" });
  });

  it("adds up along a branch: the scopes above come first", async () => {
    const middle = dependency({
      name: "middle",
      params: { seen: p.Security(scopesSeen, { scopes: ["me"] }) },
      resolve: (_request, { seen }) => seen,
    });
    const items = endpoint({
      params: { seen: p.Security(middle, { scopes: ["items"] }) },
      returns: JsonResponse,
      handler: (_request, { seen }) => new JsonResponse(seen),
    });
    expect((await served(["/items", { endpoint: items }]).get("/items")).json()).toEqual(["items", "me"]);
  });

  it("keeps branches apart: one dependency under two branches is resolved once for each set of scopes", async () => {
    let resolved = 0;
    const counted = dependency({
      name: "counted",
      params: { required: p.SecurityScopes() },
      resolve: (_request, { required }) => {
        resolved++;
        return required.scopes;
      },
    });
    const both = endpoint({
      params: {
        first: p.Security(counted, { scopes: ["scope1"] }),
        second: p.Security(counted, { scopes: ["scope2"] }),
        again: p.Security(counted, { scopes: ["scope1"] }),
        plain: p.Depends(counted),
      },
      returns: JsonResponse,
      handler: (_request, values) => new JsonResponse(values),
    });
    const response = await served(["/both", { endpoint: both }]).get("/both");
    expect(response.json()).toEqual({ first: ["scope1"], second: ["scope2"], again: ["scope1"], plain: [] });
    expect(resolved).toBe(3);
  });

  it("an app dependency's branch without scopes does not see the endpoint's", async () => {
    const noScopes = dependency({
      name: "no_scopes",
      params: { seen: p.Security(scopesSeen) },
      resolve: () => null,
    });
    const getScopes = endpoint({
      params: { seen: p.Security(scopesSeen, { scopes: ["foo", "bar"] }) },
      returns: JsonResponse,
      handler: (_request, { seen }) => new JsonResponse({ verified_scopes: seen }),
    });
    const app = createApp({ dependencies: [noScopes], routes: [path("/scopes", { endpoint: getScopes })] });
    expect((await testClient(app).get("/scopes")).json()).toEqual({ verified_scopes: ["foo", "bar"] });
  });

  it("an override of a dependency gets the same scopes", async () => {
    const getUser = dependency({
      name: "get_user",
      params: { required: p.SecurityScopes() },
      resolve: (_request, { required }) => ({ user: "john", scopes: required.scopes }),
    });
    const override = dependency({
      params: { required: p.SecurityScopes() },
      resolve: (_request, { required }) => ({ user: "alice", scopes: required.scopes }),
    });
    const readUser = endpoint({
      params: { user: p.Security(getUser, { scopes: ["foo", "bar"] }) },
      returns: JsonResponse,
      handler: (_request, { user }) => new JsonResponse(user),
    });
    const app = createApp({ routes: [path("/user", { endpoint: readUser })] });
    const response = await testClient(app, { overrides: [[getUser, override]] }).get("/user");
    expect(response.json()).toEqual({ user: "alice", scopes: ["foo", "bar"] });
  });

  it("a scheme's verify gets the scopes asked of it on every branch, and checks them itself", async () => {
    const held: Record<string, string[]> = { ann: ["items"], bob: ["items", "me"] };
    const seen: string[][] = [];
    const bearer = httpBearer({
      // Scopes kept in the app's database: verify checks them, with a message of its own.
      verify: (token, _request, required) => {
        seen.push([...required.scopes]);
        const missing = required.scopes.filter((scope) => !held[token]?.includes(scope));
        if (missing.length > 0) throw new ForbiddenError(`${token} lacks ${missing.join(", ")}`);
        return { name: token };
      },
      scopesOf: (principal) => held[principal.name] ?? [],
    });
    const currentUser = dependency({
      name: "current_user",
      params: { user: p.Security(bearer, { scopes: ["me"] }) },
      resolve: (_request, { user }) => user,
    });
    const ownItems = endpoint({
      params: { user: p.Security(currentUser, { scopes: ["items"] }) },
      returns: JsonResponse,
      handler: (_request, { user }) => new JsonResponse(user),
    });
    const app = createApp({ routes: [path("/me/items", { endpoint: ownItems })] });
    const client = testClient(app);
    const bob = await client.get("/me/items", { headers: { authorization: "Bearer bob" } });
    expect([bob.status, bob.json()]).toEqual([200, { name: "bob" }]);
    const ann = await client.get("/me/items", { headers: { authorization: "Bearer ann" } });
    expect([ann.status, ann.json()]).toEqual([403, { detail: "ann lacks me" }]);
    expect(seen).toEqual([
      ["items", "me"],
      ["items", "me"],
    ]);
    // The document asks for the scopes of the whole branch.
    expect(app.openapi().paths["/me/items"]!.get!.security).toEqual([{ bearerAuth: ["items", "me"] }]);
  });

  it("p.SecurityScopes() and p.Response() are for dependencies: an endpoint's own is a ValueError", () => {
    for (const [marker, message] of [
      [
        p.SecurityScopes(),
        "p.SecurityScopes() is for a dependency's params; the endpoint's own scopes are its p.Security(…, { scopes }).",
      ],
      [
        p.Response(),
        "p.Response() is for a dependency's params; the handler sets headers, cookies and the status on the response it returns.",
      ],
    ] as const) {
      const probe = endpoint({
        params: { marker },
        returns: JsonResponse,
        handler: () => new JsonResponse(null),
      });
      const build = () => createApp({ routes: [path("/probe", { endpoint: probe, name: "probe" })] });
      expect(build).toThrow(ValueError);
      expect(build).toThrow(`endpoint "probe" (GET /probe), parameter "marker": ${message}`);
    }
  });

  it("types: a SecurityScopes value, not a wire parameter", () => {
    const typed = dependency({
      params: { required: p.SecurityScopes() },
      resolve: (_request, { required }) => required satisfies SecurityScopes,
    });
    expect(typed.kind).toBe("dependency");
  });
});

describe("audit: docs/security.md, a verify that sees the scopes", () => {
  it("accepting the token, still gets the built-in 403 for a scope scopesOf(principal) lacks", async () => {
    const seen: string[] = [];
    const bearer = httpBearer({
      verify: (token, _request, required) => {
        seen.push(required.scopeStr);
        return token === "bob" ? { name: "bob", scope: "items" } : null;
      },
    });
    const client = served([
      "/me/items",
      {
        endpoint: endpoint({
          params: { user: p.Security(bearer, { scopes: ["items", "me"] }) },
          returns: JsonResponse,
          handler: (_request, { user }) => new JsonResponse(user),
        }),
      },
    ]);
    const response = await client.get("/me/items", { headers: { authorization: "Bearer bob" } });
    expect([response.status, response.json()]).toEqual([
      403,
      { detail: "Not enough permissions: the scope me is required" },
    ]);
    expect(seen).toEqual(["items me"]);
  });
});
