import { readFile } from "node:fs/promises";
import { get } from "node:http";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { compression, createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";
import { type RunningServer, startServer } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureApp, OPENAPI } from "../fixture-app.ts";

const require = createRequire(import.meta.url);
const packageFolder = (name: string) => dirname(require.resolve(`${name}/package.json`));
const EXTERNAL_URL = /\b(?:https?:)?\/\/(?!127\.0\.0\.1|localhost)[\w.-]+/;
const DOC_PATHS = [
  "/openapi/docs",
  "/openapi/docs/",
  "/openapi/redoc",
  "/openapi/openapi.json",
  "/openapi/assets/swagger-ui.css",
];

/** A GET over a plain socket, which leaves the body as sent (fetch would decompress it). */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on("error", reject);
    }).on("error", reject);
  });
}

const ping = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({ pong: true }) });
const pingRoutes = [path("/ping", { endpoint: ping })];

describe("documentation pages when OPENAPI.allow_public is true", () => {
  const app = fixtureApp();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(app);
  });
  afterAll(() => server.close());

  it.each([
    ["/openapi/docs", "Fixture API – Swagger UI", "assets/swagger-ui-bundle.js"],
    ["/openapi/redoc", "Fixture API – ReDoc", "assets/redoc.standalone.js"],
  ])("serves %s as HTML that loads only local assets", async (page, title, script) => {
    const response = await server.fetch(page);
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(html).toContain(`<title>${title}</title>`);
    expect(html).toContain(`<script src="${script}"></script>`);
    expect(html).toContain('"openapi.json"');
    expect(html).not.toMatch(EXTERNAL_URL);
  });

  it.each([
    ["/openapi/docs/", "../docs"],
    ["/openapi/redoc/", "../redoc"],
    ["/openapi/docs/?filter=students", "../docs?filter=students"],
  ])("redirects %s to the page without the slash: 307, Location %s", async (page, location) => {
    const response = await server.fetch(page, { redirect: "manual" });
    expect({
      status: response.status,
      location: response.headers.get("location"),
      body: await response.text(),
    }).toEqual({ status: 307, location, body: "" });
  });

  it("reaches the page from the slash path when the client follows the redirect", async () => {
    const response = await server.fetch("/openapi/redoc/");
    expect([response.status, response.url, response.headers.get("content-type")]).toEqual([
      200,
      `${server.url}/openapi/redoc`,
      "text/html; charset=utf-8",
    ]);
  });

  it("serves the document as JSON, equal to app.openapi()", async () => {
    const response = await server.fetch("/openapi/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(app.openapi())));
  });

  it.each([
    ["swagger-ui.css", "text/css; charset=utf-8", "swagger-ui-dist", "swagger-ui.css"],
    ["swagger-ui-bundle.js", "text/javascript; charset=utf-8", "swagger-ui-dist", "swagger-ui-bundle.js"],
    ["favicon-32x32.png", "image/png", "swagger-ui-dist", "favicon-32x32.png"],
  ])(
    "serves the asset %s as %s, run from the sources, from the development dependency the build copies it from",
    async (name, contentType, pkg, file) => {
      const response = await server.fetch(`/openapi/assets/${name}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe(contentType);
      expect(response.headers.get("cache-control")).toBe("public, max-age=86400");
      const served = Buffer.from(await response.arrayBuffer());
      expect(served.equals(await readFile(join(packageFolder(pkg), file)))).toBe(true);
    },
  );

  it.each([
    ["swagger-ui.css", "swagger-ui-dist", "swagger-ui.css"],
    ["swagger-ui-bundle.js", "swagger-ui-dist", "swagger-ui-bundle.js"],
  ])(
    "sends the text asset %s compressed with gzip to a client that accepts gzip",
    async (name, pkg, file) => {
      const response = await rawGet(`${server.url}/openapi/assets/${name}`, {
        "accept-encoding": "gzip, br",
      });
      const original = await readFile(join(packageFolder(pkg), file));
      expect([response.status, response.headers["content-encoding"], response.headers.vary]).toEqual([
        200,
        "gzip",
        "Accept-Encoding",
      ]);
      expect(Number(response.headers["content-length"])).toBe(response.body.byteLength);
      expect(response.body.byteLength).toBeLessThan(original.byteLength / 2);
      expect(gunzipSync(response.body).equals(original)).toBe(true);
    },
  );

  it.each([
    ["no Accept-Encoding", {}],
    ["gzip refused", { "accept-encoding": "gzip;q=0, br" }],
    ["identity only", { "accept-encoding": "identity" }],
  ])("sends a text asset as it is to a client with %s", async (_case, headers) => {
    const response = await rawGet(`${server.url}/openapi/assets/swagger-ui-bundle.js`, headers);
    const original = await readFile(join(packageFolder("swagger-ui-dist"), "swagger-ui-bundle.js"));
    expect([response.status, response.headers["content-encoding"], response.headers.vary]).toEqual([
      200,
      undefined,
      "Accept-Encoding",
    ]);
    expect(response.body.equals(original)).toBe(true);
  });

  it("sends the image as it is, whatever the client accepts", async () => {
    const response = await rawGet(`${server.url}/openapi/assets/favicon-32x32.png`, {
      "accept-encoding": "gzip",
    });
    const original = await readFile(join(packageFolder("swagger-ui-dist"), "favicon-32x32.png"));
    expect([response.status, response.headers["content-encoding"], response.headers.vary]).toEqual([
      200,
      undefined,
      undefined,
    ]);
    expect(response.body.equals(original)).toBe(true);
  });

  it("serves Redoc's bundle with its CDN logo replaced by an inline image", async () => {
    const response = await server.fetch("/openapi/assets/redoc.standalone.js");
    const served = await response.text();
    const original = await readFile(join(packageFolder("redoc"), "bundles/redoc.standalone.js"), "utf8");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(original).toContain("https://cdn.redoc.ly/redoc/logo-mini.svg");
    expect(served).not.toContain("cdn.redoc.ly");
    expect(served).toContain(`src:"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E"`);
  });

  it("answers HEAD on a page with the headers only", async () => {
    const response = await server.fetch("/openapi/docs", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await response.text()).toBe("");
  });

  it("answers 404 for a name that is not an asset", async () => {
    const response = await server.fetch("/openapi/assets/package.json");
    expect({ status: response.status, body: await response.json() }).toEqual({
      status: 404,
      body: { detail: "Not Found: /openapi/assets/package.json" },
    });
  });

  it("keeps the documentation routes out of the app's routes and the document", () => {
    expect(app.routes.some((route) => route.path.startsWith("/openapi"))).toBe(false);
    expect(Object.keys(app.openapi().paths).filter((route) => route.startsWith("/openapi"))).toEqual([]);
  });

  it("answers through app.fetch as well", async () => {
    const response = await app.fetch(new Request("http://app.test/openapi/openapi.json"));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { info: { title: string } }).info.title).toBe("Fixture API");
  });
});

describe("documentation assets under an app's compression()", () => {
  it("are compressed once: the gzipped asset goes as it is, with one Vary", async () => {
    const server = await startServer(
      createApp({ settings: { OPENAPI }, routes: pingRoutes, middleware: [compression()] }),
    );
    try {
      const response = await rawGet(`${server.url}/openapi/assets/swagger-ui.css`, {
        "accept-encoding": "gzip",
      });
      const original = await readFile(join(packageFolder("swagger-ui-dist"), "swagger-ui.css"));
      expect([response.status, response.headers["content-encoding"], response.headers.vary]).toEqual([
        200,
        "gzip",
        "Accept-Encoding",
      ]);
      expect(gunzipSync(response.body).equals(original)).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe("documentation pages are not served otherwise", () => {
  it.each([
    ["OPENAPI is absent", {}],
    ["allow_public is false", { OPENAPI: { ...OPENAPI, allow_public: false } }],
    ["allow_public is not given", { OPENAPI: { info: OPENAPI.info } }],
  ])("answers 404 like any unknown path when %s", async (_case, settings) => {
    const server = await startServer(createApp({ settings, routes: pingRoutes }));
    try {
      for (const docPath of DOC_PATHS) {
        const response = await server.fetch(docPath);
        expect({ status: response.status, body: await response.json() }).toEqual({
          status: 404,
          body: { detail: `Not Found: ${docPath}` },
        });
      }
    } finally {
      await server.close();
    }
  });

  it("still produces the document from code", () => {
    const app = createApp({ settings: { OPENAPI: { ...OPENAPI, allow_public: false } }, routes: pingRoutes });
    expect(Object.keys(app.openapi().paths)).toEqual(["/ping"]);
  });
});
