import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { createApp, ValueError } from "unruffled";
import { generateOpenApi } from "unruffled/openapi";
import { staticFiles } from "unruffled/static";
import { testClient } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyOf, openRaw, statusOf } from "../support/raw-http.ts";
import { serve } from "../support/serve.ts";

// <tmp>/secret.txt beside <tmp>/public, which is served: no request may reach the secret.
let root: string;
let publicDir: string;
let htmlDir: string;
const SECRET = "the secret beside the public folder";

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "static-files-"));
  publicDir = join(root, "public");
  htmlDir = join(root, "site");
  await writeFile(join(root, "secret.txt"), SECRET);
  await mkdir(join(publicDir, "css"), { recursive: true });
  await writeFile(join(publicDir, "hello.txt"), "hello");
  await writeFile(join(publicDir, "css", "site.css"), "body{color:red}");
  await writeFile(join(publicDir, "with space.txt"), "spaced");
  await symlink(join(root, "secret.txt"), join(publicDir, "leak.txt"));
  await symlink(join(publicDir, "hello.txt"), join(publicDir, "alias.txt"));
  await symlink(root, join(publicDir, "up"));
  await mkdir(join(htmlDir, "docs"), { recursive: true });
  await mkdir(join(htmlDir, "empty"));
  await writeFile(join(htmlDir, "index.html"), "<h1>home</h1>");
  await writeFile(join(htmlDir, "docs", "index.html"), "<h1>docs</h1>");
  await writeFile(join(htmlDir, "404.html"), "<h1>nothing here</h1>");
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const publicRoutes = () => [staticFiles("/static", { directory: publicDir, name: "static" })];
const htmlRoutes = () => [staticFiles("/site", { directory: htmlDir, html: true })];

/** Sends a request target exactly as written (no client normalises it); the status and body. */
async function rawGet(port: number, target: string): Promise<{ status: number; body: string }> {
  const raw = await openRaw(port);
  await raw.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  const received = await raw.closed();
  return { status: statusOf(received), body: bodyOf(received) };
}

describe("staticFiles", () => {
  it("serves a file under the directory as a FileResponse", async () => {
    const server = await serve(publicRoutes());
    const response = await server.fetch("/static/css/site.css");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(response.headers.get("content-length")).toBe("15");
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    expect(response.headers.get("etag")).toMatch(/^"f-[0-9a-f]+"$/);
    expect(await response.text()).toBe("body{color:red}");
  });

  it("reads a percent-encoded name", async () => {
    const server = await serve(publicRoutes());
    const response = await server.fetch("/static/with%20space.txt");
    expect(await response.text()).toBe("spaced");
  });

  it("answers HEAD with the headers and no body", async () => {
    const server = await serve(publicRoutes());
    const response = await server.fetch("/static/hello.txt", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBe("5");
    expect(await response.text()).toBe("");
  });

  it("answers conditional and range requests as FileResponse does", async () => {
    const server = await serve(publicRoutes());
    const etag = (await server.fetch("/static/hello.txt", { method: "HEAD" })).headers.get("etag")!;
    expect((await server.fetch("/static/hello.txt", { headers: { "if-none-match": etag } })).status).toBe(
      304,
    );
    const part = await server.fetch("/static/hello.txt", { headers: { range: "bytes=1-2" } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe("el");
  });

  it("answers If-Match and If-Unmodified-Since as FileResponse does: 412 when they fail", async () => {
    const server = await serve(publicRoutes());
    const head = await server.fetch("/static/hello.txt", { method: "HEAD" });
    const [etag, modified] = [head.headers.get("etag")!, head.headers.get("last-modified")!];
    const failed = await server.fetch("/static/hello.txt", { headers: { "if-match": '"other"' } });
    expect([failed.status, failed.headers.get("content-length"), failed.headers.get("etag")]).toEqual([
      412,
      "0",
      etag,
    ]);
    expect(await failed.text()).toBe("");
    const held = await server.fetch("/static/hello.txt", { headers: { "if-match": etag } });
    expect([held.status, await held.text()]).toEqual([200, "hello"]);
    const earlier = new Date(Date.parse(modified) - 1000).toUTCString();
    const changed = await server.fetch("/static/hello.txt", { headers: { "if-unmodified-since": earlier } });
    expect([changed.status, await changed.text()]).toEqual([412, ""]);
  });

  it("answers several ranges as FileResponse does: 206 multipart/byteranges", async () => {
    const server = await serve(publicRoutes());
    const response = await server.fetch("/static/hello.txt", { headers: { range: "bytes=0-0,3-4" } });
    const boundary = /^multipart\/byteranges; boundary=([0-9a-f]{24})$/.exec(
      response.headers.get("content-type")!,
    )?.[1];
    const part = (range: string, bytes: string) =>
      `--${boundary}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-range: bytes ${range}/5\r\n\r\n${bytes}`;
    const expected = `${part("0-0", "h")}\r\n${part("3-4", "lo")}\r\n--${boundary}--\r\n`;
    expect([response.status, response.headers.get("content-length"), await response.text()]).toEqual([
      206,
      String(expected.length),
      expected,
    ]);
  });

  it("answers HEAD with Range as FileResponse does: the 206 headers GET gets, no body", async () => {
    const server = await serve(publicRoutes());
    const response = await server.fetch("/static/hello.txt", {
      method: "HEAD",
      headers: { range: "bytes=1-3" },
    });
    expect([
      response.status,
      response.headers.get("content-range"),
      response.headers.get("content-length"),
      await response.text(),
    ]).toEqual([206, "bytes 1-3/5", "3", ""]);
  });

  it("answers a missing file 404 in the app's error format", async () => {
    const server = await serve(publicRoutes());
    const response = await server.fetch("/static/missing.txt");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ detail: "Not Found: /static/missing.txt" });
  });

  it("answers a directory 404 without html", async () => {
    const server = await serve(publicRoutes());
    expect(await rawGet(server.port, "/static/css")).toEqual({
      status: 404,
      body: '{"detail":"Not Found: /static/css"}',
    });
    expect(await rawGet(server.port, "/static/")).toEqual({
      status: 404,
      body: '{"detail":"Not Found: /static/"}',
    });
  });

  it("serves a symbolic link that points inside the directory", async () => {
    const server = await serve(publicRoutes());
    expect(await (await server.fetch("/static/alias.txt")).text()).toBe("hello");
  });

  it("is left out of the OpenAPI document", () => {
    const app = createApp({ routes: publicRoutes() });
    expect(generateOpenApi(app).paths).toEqual({});
  });

  it("answers the same through the test client", async () => {
    const client = testClient(createApp({ routes: publicRoutes() }));
    const response = await client.get("/static/hello.txt");
    expect(response.status).toBe(200);
    expect(response.text).toBe("hello");
  });
});

describe("staticFiles refuses every way out of its directory with a 404", () => {
  it.each([
    ["a dot-dot segment", "/static/../secret.txt"],
    ["an encoded dot-dot", "/static/%2e%2e/secret.txt"],
    ["an encoded slash after dot-dot", "/static/..%2fsecret.txt"],
    ["all of it encoded", "/static/%2e%2e%2fsecret.txt"],
    ["a dot-dot deeper down", "/static/css/../../secret.txt"],
    ["a backslash", "/static/..%5csecret.txt"],
    ["a raw backslash", "/static/..\\secret.txt"],
    ["a NUL byte", "/static/hello.txt%00.css"],
    ["an absolute path", "/static//etc/passwd"],
    ["an encoded absolute path", "/static/%2F<root>%2Fsecret.txt"],
    ["a symbolic link to a file outside", "/static/leak.txt"],
    ["a symbolic link to a directory outside", "/static/up/secret.txt"],
  ])("%s", async (_case, target) => {
    const server = await serve(publicRoutes());
    const { status, body } = await rawGet(
      server.port,
      target.replace("<root>", encodeURIComponent(root.slice(1))),
    );
    expect(status).toBe(404);
    expect(body).not.toContain(SECRET);
    expect(JSON.parse(body)).toEqual({ detail: expect.stringMatching(/^Not Found: /) });
  });

  it("reads the secret through the path relative to the folder (the fixture is right)", () => {
    expect(relative(publicDir, join(root, "secret.txt"))).toBe("../secret.txt");
  });
});

describe("staticFiles with html: true", () => {
  it("serves index.html for the top directory", async () => {
    const server = await serve(htmlRoutes());
    const response = await server.fetch("/site/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await response.text()).toBe("<h1>home</h1>");
  });

  it("serves a directory's index.html at its path with a slash", async () => {
    const server = await serve(htmlRoutes());
    expect(await (await server.fetch("/site/docs/")).text()).toBe("<h1>docs</h1>");
  });

  it("redirects a directory's path without a slash to the path with one (307), keeping the query", async () => {
    const server = await serve(htmlRoutes());
    const response = await server.fetch("/site/docs?lang=en", { redirect: "manual" });
    expect(response.status).toBe(307);
    expect(response.headers.get("location")).toBe("/site/docs/?lang=en");
    expect(await response.text()).toBe("");
  });

  it("redirects the prefix itself to the prefix with a slash (307)", async () => {
    const server = await serve(htmlRoutes());
    const response = await server.fetch("/site", { redirect: "manual" });
    expect(response.status).toBe(307);
    expect(response.headers.get("location")).toBe("/site/");
  });

  it("answers a missing file with 404.html and status 404", async () => {
    const server = await serve(htmlRoutes());
    const response = await server.fetch("/site/missing.html");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await response.text()).toBe("<h1>nothing here</h1>");
  });

  it("answers a directory without index.html with 404.html", async () => {
    const server = await serve(htmlRoutes());
    const response = await server.fetch("/site/empty/");
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("<h1>nothing here</h1>");
  });

  it("answers a missing file 404 in the app's format when there is no 404.html", async () => {
    const server = await serve([staticFiles("/static", { directory: publicDir, html: true })]);
    const response = await server.fetch("/static/missing.html");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ detail: "Not Found: /static/missing.html" });
  });

  it("refuses a way out of the directory with a 404 too", async () => {
    const server = await serve(htmlRoutes());
    const { status, body } = await rawGet(server.port, "/site/%2e%2e/secret.txt");
    expect(status).toBe(404);
    expect(body).toBe("<h1>nothing here</h1>");
  });
});

describe("staticFiles declaration", () => {
  it("refuses a directory that does not exist", () => {
    const missing = join(tmpdir(), "no-such-static-directory");
    expect(() => staticFiles("/static", { directory: missing })).toThrow(
      new ValueError(`staticFiles("/static"): the directory ${JSON.stringify(missing)} does not exist.`),
    );
  });

  it("refuses a file given as the directory", () => {
    const file = join(publicDir, "hello.txt");
    expect(() => staticFiles("/static", { directory: file })).toThrow(
      new ValueError(`staticFiles("/static"): ${JSON.stringify(file)} is not a directory.`),
    );
  });

  it("refuses a prefix that ends with a slash", () => {
    expect(() => staticFiles("/static/", { directory: publicDir })).toThrow(
      new ValueError(
        'staticFiles("/static/"): the prefix must start with "/" and not end with one ("/static"), or be "/".',
      ),
    );
  });

  it("serves at the root with the prefix /", async () => {
    const server = await serve([staticFiles("/", { directory: publicDir })]);
    expect(await (await server.fetch("/hello.txt")).text()).toBe("hello");
  });
});
