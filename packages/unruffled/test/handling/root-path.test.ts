// ROOT_PATH and X-Forwarded-Prefix (docs/deployment.md, "Behind a proxy under a prefix"): an app a
// proxy serves under /api/v1, the prefix stripped before the request reaches it (FastAPI's root_path).
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp, httpsRedirect, trustedHost, ValueError } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { staticFiles } from "unruffled/static";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { wireRequest } from "../support/http-request.ts";
import { serve } from "../support/serve.ts";

const linkTo = endpoint({
  params: { name: p.Query(z.string()) },
  returns: JsonResponse,
  handler: (request, { name }) =>
    new JsonResponse({ url: request.urlFor(name, name === "get_student" ? { student_id: 42 } : {}) }),
});
const student = endpoint({
  returns: JsonResponse,
  handler: (request) => new JsonResponse(request.pathParams),
});
const routes = [
  path("/link", { endpoint: linkTo }),
  path("/students/{student_id}", { endpoint: student, name: "get_student" }),
];
const FORWARDED = { "x-forwarded-for": "203.0.113.7", "x-forwarded-host": "school.example" };

async function linkOf(server: { url: string }, headers: Record<string, string> = {}): Promise<unknown> {
  const answer = await wireRequest(server.url, "GET", "/link?name=get_student", headers);
  return [answer.status, JSON.parse(answer.body.toString())];
}

describe("the ROOT_PATH setting", () => {
  it("puts the root path in request.urlFor", async () => {
    const server = await serve(routes, { settings: { ROOT_PATH: "/api/v1" } });
    expect(await linkOf(server)).toEqual([200, { url: `${server.url}/api/v1/students/42` }]);
  });

  it("leaves app.urlPathFor the path inside the app, as Starlette's url_path_for", () => {
    const app = createApp({ routes, settings: { ROOT_PATH: "/api/v1" } });
    expect(app.urlPathFor("get_student", { student_id: 42 })).toBe("/students/42");
  });

  it.each([
    ["api/v1", 'ROOT_PATH must start with "/": write "/api/v1"'],
    ["/api/v1/", 'ROOT_PATH must not end with "/": write "/api/v1"'],
    ["/", 'ROOT_PATH must not end with "/": write "" (or leave it out) for none'],
    ["/api?v=1", 'ROOT_PATH is a path, without "?" or "#": got "/api?v=1"'],
    ["/api/v1#top", 'ROOT_PATH is a path, without "?" or "#": got "/api/v1#top"'],
    ["/api//v1", 'ROOT_PATH must not have an empty segment: got "/api//v1"'],
    [
      "/my api",
      'ROOT_PATH has a character a URL path cannot carry as it is: got "/my api"; percent-encode it ("/my%20api")',
    ],
    [42, 'ROOT_PATH must be a string such as "/api/v1", got 42'],
  ])("refuses %j when the app is built, with a ValueError naming what to write", (value, message) => {
    expect(() => createApp({ routes, settings: { ROOT_PATH: value as string } })).toThrow(
      new ValueError(message),
    );
  });

  it("refuses it written in another case", () => {
    expect(() => createApp({ routes, settings: { root_path: "/api/v1" } })).toThrow(
      'The setting "root_path" is not read: the framework\'s settings are upper case (ROOT_PATH).',
    );
  });
});

describe("X-Forwarded-Prefix", () => {
  it("is the request's root path when a trusted proxy sends it, over the setting", async () => {
    const server = await serve(routes, {
      settings: { ROOT_PATH: "/old", PROXIES: { trusted: ["loopback"] } },
    });
    expect(await linkOf(server, { ...FORWARDED, "x-forwarded-prefix": "/api/v1" })).toEqual([
      200,
      { url: "http://school.example/api/v1/students/42" },
    ]);
  });

  it("is ignored from a client no proxy setting trusts", async () => {
    const server = await serve(routes);
    expect(await linkOf(server, { "x-forwarded-prefix": "/evil" })).toEqual([
      200,
      { url: `${server.url}/students/42` },
    ]);
  });

  it('is ignored under PROXIES.headers "forwarded", where the X-Forwarded-* headers are not read', async () => {
    const server = await serve(routes, {
      settings: { ROOT_PATH: "/api/v1", PROXIES: { trusted: ["loopback"], headers: "forwarded" } },
    });
    expect(await linkOf(server, { "x-forwarded-prefix": "/evil" })).toEqual([
      200,
      { url: `${server.url}/api/v1/students/42` },
    ]);
  });

  it("is ignored from a peer outside the trusted list", async () => {
    const server = await serve(routes, {
      settings: { ROOT_PATH: "/api/v1", PROXIES: { trusted: ["10.0.0.0/8"] } },
    });
    expect(await linkOf(server, { "x-forwarded-prefix": "/evil" })).toEqual([
      200,
      { url: `${server.url}/api/v1/students/42` },
    ]);
  });

  it.each(["api", "/api/", "/api?x=1", "//evil.example", "/a b", "/a/../b"])(
    "is ignored when it is no root path (%j), the setting kept, never a 500",
    async (prefix) => {
      const server = await serve(routes, { settings: { ROOT_PATH: "/api/v1", PROXIES: { trusted: true } } });
      expect(await linkOf(server, { "x-forwarded-prefix": prefix })).toEqual([
        200,
        { url: `${server.url}/api/v1/students/42` },
      ]);
    },
  );
});

describe("the framework's own redirects under a root path", () => {
  it("httpsRedirect() keeps the root path in its Location", async () => {
    const server = await serve(routes, { settings: { ROOT_PATH: "/api/v1" }, middleware: [httpsRedirect()] });
    const answer = await wireRequest(server.url, "GET", "/students/42?x=1", { host: "school.example" });
    expect([answer.status, answer.headers.location]).toEqual([
      307,
      "https://school.example/api/v1/students/42?x=1",
    ]);
  });

  it("trustedHost()'s www redirect keeps the root path in its Location", async () => {
    const server = await serve(routes, {
      settings: { ROOT_PATH: "/api/v1" },
      middleware: [trustedHost({ hosts: ["www.school.example"] })],
    });
    const answer = await wireRequest(server.url, "GET", "/students/42?x=1", { host: "school.example" });
    expect([answer.status, answer.headers.location]).toEqual([
      307,
      "http://www.school.example/api/v1/students/42?x=1",
    ]);
  });

  it("staticFiles()' slash redirect of a folder keeps the root path", async () => {
    const folder = await mkdtemp(join(tmpdir(), "unruffled-root-path-"));
    afterAll(() => rm(folder, { recursive: true, force: true }));
    await mkdir(join(folder, "docs"));
    await writeFile(join(folder, "docs", "index.html"), "<h1>docs</h1>");
    const server = await serve([staticFiles("/site", { directory: folder, html: true })], {
      settings: { ROOT_PATH: "/api/v1" },
    });
    const answer = await wireRequest(server.url, "GET", "/site/docs?x=1");
    expect([answer.status, answer.headers.location]).toEqual([307, "/api/v1/site/docs/?x=1"]);
  });
});

const INFO = { title: "School", version: "1.0.0" };

/** The `servers` of the document served at `/openapi/openapi.json`, the request sent with `headers`. */
async function servedServers(
  server: { url: string },
  headers: Record<string, string> = {},
): Promise<unknown> {
  const answer = await wireRequest(server.url, "GET", "/openapi/openapi.json", headers);
  return [answer.status, JSON.parse(answer.body.toString()).servers];
}

describe("the served OpenAPI document under a root path", () => {
  const documented = { OPENAPI: { info: INFO, allow_public: true } };

  it("names the root path as its first server, so that Swagger UI's Try it out reaches the app", async () => {
    const server = await serve(routes, { settings: { ...documented, ROOT_PATH: "/api/v1" } });
    expect(await servedServers(server)).toEqual([200, [{ url: "/api/v1" }]]);
  });

  it("puts it before the app's own servers, and not twice when they already have it", async () => {
    const before = await serve(routes, {
      settings: {
        OPENAPI: { ...documented.OPENAPI, servers: [{ url: "https://school.example" }] },
        ROOT_PATH: "/api/v1",
      },
    });
    const already = await serve(routes, {
      settings: { OPENAPI: { ...documented.OPENAPI, servers: [{ url: "/api/v1" }] }, ROOT_PATH: "/api/v1" },
    });
    expect([await servedServers(before), await servedServers(already)]).toEqual([
      [200, [{ url: "/api/v1" }, { url: "https://school.example" }]],
      [200, [{ url: "/api/v1" }]],
    ]);
  });

  it("takes a trusted proxy's X-Forwarded-Prefix", async () => {
    const server = await serve(routes, { settings: { ...documented, PROXIES: { trusted: ["loopback"] } } });
    expect(await servedServers(server, { "x-forwarded-prefix": "/v2" })).toEqual([200, [{ url: "/v2" }]]);
  });

  it("has no servers without a root path, and app.openapi() stays the app's own document", async () => {
    const plain = await serve(routes, { settings: documented });
    const app = createApp({ routes, settings: { ...documented, ROOT_PATH: "/api/v1" } });
    expect([await servedServers(plain), app.openapi().servers]).toEqual([[200, undefined], undefined]);
  });

  it("leaves the root path out with OPENAPI.root_path_in_servers false", async () => {
    const server = await serve(routes, {
      settings: { OPENAPI: { ...documented.OPENAPI, root_path_in_servers: false }, ROOT_PATH: "/api/v1" },
    });
    expect(await servedServers(server)).toEqual([200, undefined]);
  });

  it("refuses an OPENAPI.root_path_in_servers that is not true or false", () => {
    expect(() =>
      createApp({
        routes,
        settings: { OPENAPI: { ...documented.OPENAPI, root_path_in_servers: "no" as never } },
      }),
    ).toThrow('The OPENAPI setting "root_path_in_servers" must be true or false, got "no"');
  });
});
