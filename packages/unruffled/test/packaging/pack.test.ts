// The first day, as a user has it: build, `npm pack`, install the tarball with zod in a new project
// outside the repository (a fresh lockfile), count what that installs, then, with the project's own
// TypeScript, type-check an app against the shipped declarations, run it on Node, open its
// documentation pages in Chromium with every request off the machine refused, and run the packed
// `unruffled` command; on the newest zod of the peer range, then on the lowest. The build and the
// pack run in a copy of the package, so that the repository's own files (and anyone testing beside
// them) are left alone.
import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { cp, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { endProcessGroups, spawnGroup } from "process-support";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, noChromium } from "../support/chromium.ts";
import {
  env,
  npmCache,
  PACKAGE_DIR,
  packPackage,
  REPOSITORY_ROOT,
  repositoryManifestText,
  run,
  succeed,
} from "./support/packed.ts";

const CONSUMER_FILES = fileURLToPath(new URL("./consumer/", import.meta.url));
const MANIFEST = JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8"));
const ROOT_MANIFEST = JSON.parse(readFileSync(join(REPOSITORY_ROOT, "package.json"), "utf8"));

// zod is a peer: the lowest release of its range is the range's floor (`^4.5.0`: 4.5.0).
const ZOD_RANGE: string = MANIFEST.peerDependencies.zod;
const LOWEST_ZOD = /^\^(\d+\.\d+\.\d+)$/.exec(ZOD_RANGE)![1]!;
// What a hello world may bring (the tarball, zod and their dependencies), and what it must not.
const MAX_PACKAGES = 25;
const MAX_MEGABYTES = 20;
const DOCS_PAGE_TREES = [
  "redoc",
  "swagger-ui-dist",
  "react",
  "mobx",
  "styled-components",
  "core-js",
  "@scarf/scarf",
];

/** `npm install` in the project, from the cache the repository's install filled where it can. */
function install(args: readonly string[]): Promise<string> {
  return succeed(
    "npm",
    ["install", ...args, "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts", "--cache", cache],
    project,
  );
}

/** The highest of versions like "4.6.7" (the releases a caret range selects). */
function highest(versions: readonly string[]): string {
  const parts = (version: string) => version.split(".").map(Number);
  return [...versions].sort((a, b) => {
    const [x, y] = [parts(a), parts(b)];
    return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
  })[versions.length - 1]!;
}

/** What a project's install brought, counted as `npm ls --all --parseable | wc -l; du -sm node_modules` count it. */
interface Footprint {
  /** Every installed package, as its folder under the project (the project itself left out). */
  packages: string[];
  megabytes: number;
  /** The packages the lockfile marks as having an install script. */
  installScripts: string[];
}

/** Every package installed in the project, as its folder (`npm ls --all --parseable`, the project left out). */
async function installedPackages(): Promise<string[]> {
  const parseable = await succeed("npm", ["ls", "--all", "--parseable"], project);
  return parseable
    .split("\n")
    .filter((line) => line !== "" && line !== project)
    .map((line) => relative(project, line).split(sep).join("/"));
}

async function footprint(): Promise<Footprint> {
  const megabytes = Number((await succeed("du", ["-sm", "node_modules"], project)).split("\t")[0]);
  const lock = JSON.parse(await readFile(join(project, "package-lock.json"), "utf8")) as {
    packages: Record<string, { hasInstallScript?: boolean }>;
  };
  const installScripts = Object.entries(lock.packages)
    .filter(([, entry]) => entry.hasInstallScript === true)
    .map(([folder]) => folder);
  return { packages: await installedPackages(), megabytes, installScripts };
}

/** The folders of every zod in the project, and the version of the one the project resolves. */
async function installedZod(): Promise<{ copies: string[]; version: string }> {
  const copies = (await installedPackages()).filter((folder) => /(^|\/)node_modules\/zod$/.test(folder));
  const { version } = JSON.parse(await readFile(join(project, "node_modules/zod/package.json"), "utf8"));
  return { copies, version };
}

/** The project's `server.ts` on a free port; `stop()` sends SIGTERM and resolves to the exit code. */
async function serveProject(
  nodeArgs: readonly string[] = ["server.ts"],
): Promise<{ base: string; stop(): Promise<number | null> }> {
  const server: ChildProcess = spawnGroup(process.execPath, [...nodeArgs], { cwd: project, env });
  const exited = new Promise<number | null>((resolve) => server.once("exit", resolve));
  try {
    const lines = createInterface({ input: server.stdout! });
    const first = await Promise.race([
      (async () => {
        for await (const line of lines) return line;
        return undefined;
      })(),
      exited.then((code) => Promise.reject(new Error(`server.ts exited ${code}`))),
    ]);
    const { port } = JSON.parse(first!) as { port: number };
    return {
      base: `http://127.0.0.1:${port}`,
      async stop() {
        server.kill("SIGTERM");
        return exited;
      },
    };
  } catch (error) {
    server.kill("SIGKILL");
    throw error;
  }
}

let folder: string;
let cache: string;
let stagedPackage: string;
let project: string;
let packedFiles: string[];
let helloWorld: Footprint;
let newestZod: string;

beforeAll(async () => {
  // The real path: npm ls prints real paths.
  folder = await realpath(await mkdtemp(join(tmpdir(), "unruffled-pack-")));
  cache = await npmCache();
  const packed = await packPackage(folder, cache);
  packedFiles = packed.files;
  stagedPackage = packed.stagedPackage;
  const tarball = packed.tarball;

  project = join(folder, "project");
  await cp(CONSUMER_FILES, project, { recursive: true });
  await writeFile(
    join(project, "package.json"),
    `${JSON.stringify({ name: "notes", private: true, type: "module" }, null, 2)}\n`,
  );
  // The newest release of the peer range, as the registry has it now.
  const inRange = JSON.parse(
    await succeed("npm", ["view", `zod@${ZOD_RANGE}`, "version", "--json", "--cache", cache], project),
  ) as string | string[];
  newestZod = highest(typeof inRange === "string" ? [inRange] : inRange);

  // A hello world: the tarball and zod, into a project with no lockfile yet; counted before any tool.
  await install([tarball, `zod@${newestZod}`, "--save-exact"]);
  helloWorld = await footprint();
  await install([
    `typescript@${ROOT_MANIFEST.devDependencies.typescript}`,
    `@types/node@${ROOT_MANIFEST.devDependencies["@types/node"]}`,
    "--save-dev",
    "--save-exact",
  ]);
}, 600_000);

// The packed app's server ends with its test, also when the test failed or timed out.
afterEach(endProcessGroups);

afterAll(async () => {
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
});

describe("the packed tarball", () => {
  it("holds the compiled modules, their declarations and maps, the sources, the bin and the notices", () => {
    expect(packedFiles).toEqual(
      expect.arrayContaining([
        "CHANGELOG.md",
        "LICENSE",
        "README.md",
        "bin/unruffled.js",
        "dist/cli.js",
        "dist/index.d.ts",
        "dist/index.d.ts.map",
        "dist/index.js",
        "dist/testing/index.d.ts",
        "dist/testing/index.js",
        "package.json",
        "src/index.ts",
      ]),
    );
    expect(packedFiles.filter((file) => !/^(dist|src|bin)\//.test(file))).toEqual([
      "CHANGELOG.md",
      "LICENSE",
      "README.md",
      "package.json",
    ]);
  });

  it("holds the documentation pages' assets, copied by the build with their licence notices, the text ones gzipped", () => {
    expect(packedFiles.filter((file) => file.startsWith("dist/docs-assets/"))).toEqual([
      "dist/docs-assets/NOTICES.md",
      "dist/docs-assets/redoc/LICENSE",
      "dist/docs-assets/redoc/bundles/redoc.standalone.js.LICENSE.txt",
      "dist/docs-assets/redoc/bundles/redoc.standalone.js.gz",
      "dist/docs-assets/swagger-ui-dist/LICENSE",
      "dist/docs-assets/swagger-ui-dist/NOTICE",
      "dist/docs-assets/swagger-ui-dist/favicon-32x32.png",
      "dist/docs-assets/swagger-ui-dist/swagger-ui-bundle.js.LICENSE.txt",
      "dist/docs-assets/swagger-ui-dist/swagger-ui-bundle.js.gz",
      "dist/docs-assets/swagger-ui-dist/swagger-ui.css.gz",
    ]);
  });

  it('has no "source" export condition, which would point Node at TypeScript inside node_modules', async () => {
    const { exports } = JSON.parse(
      await readFile(join(project, "node_modules/unruffled/package.json"), "utf8"),
    ) as { exports: Record<string, string | Record<string, string>> };
    const conditions = Object.values(exports).flatMap((target) =>
      typeof target === "string" ? [] : Object.keys(target),
    );
    expect([...new Set(conditions)]).toEqual(["types", "default"]);
  });

  it('leaves the packed copy\'s package.json as it was, its "source" conditions back (postpack)', async () => {
    expect(await readFile(join(stagedPackage, "package.json"), "utf8")).toBe(await repositoryManifestText());
  });

  it("takes zod as a peer, pg, redis and ws as optional peers, and its run-time dependencies as caret ranges", () => {
    const { dependencies, peerDependencies, peerDependenciesMeta } = JSON.parse(
      readFileSync(join(project, "node_modules/unruffled/package.json"), "utf8"),
    );
    // Brokers and rate-limit stores load pg and redis, WebSocket routes ws, only when an app uses them.
    expect(peerDependencies).toEqual({ zod: ZOD_RANGE, pg: "^8.11.0", redis: "^6.0.0", ws: "^8.18.0" });
    expect(peerDependenciesMeta).toEqual({
      pg: { optional: true },
      redis: { optional: true },
      ws: { optional: true },
    });
    // An app that uses no broker, store or WebSocket route installs none of them.
    expect(existsSync(join(project, "node_modules/pg"))).toBe(false);
    expect(existsSync(join(project, "node_modules/redis"))).toBe(false);
    expect(existsSync(join(project, "node_modules/ws"))).toBe(false);
    expect(Object.keys(dependencies).sort()).toEqual(["@fastify/busboy", "jose", "pino"]);
    expect(Object.values(dependencies).filter((range) => !/^\^\d+\.\d+\.\d+$/.test(range as string))).toEqual(
      [],
    );
  });

  it("imports .js files from the JavaScript and the declarations, and runs its CLI under a plain shebang", async () => {
    const dist = join(project, "node_modules/unruffled/dist");
    const js = await readFile(join(dist, "index.js"), "utf8");
    const declarations = await readFile(join(dist, "index.d.ts"), "utf8");
    expect(js).toContain('from "./app/app.js"');
    expect(declarations).toContain('from "./app/app.js"');
    for (const text of [js, declarations]) expect(text).not.toMatch(/from "\.\.?\/[^"]*\.ts"/);
    expect((await readFile(join(dist, "cli.js"), "utf8")).split("\n")[0]).toBe("#!/usr/bin/env node");
    expect(
      (await readFile(join(project, "node_modules/unruffled/bin/unruffled.js"), "utf8")).split("\n")[0],
    ).toBe("#!/usr/bin/env node");
  });
});

describe("a hello world: the tarball and zod in a project of their own", () => {
  it(`installs at most ${MAX_PACKAGES} packages and ${MAX_MEGABYTES} MB, none of the pages' trees, and no install script`, () => {
    const names = helloWorld.packages.map((folder) => folder.replace(/^.*node_modules\//, ""));
    expect(names.filter((name) => DOCS_PAGE_TREES.includes(name))).toEqual([]);
    expect(helloWorld.installScripts).toEqual([]);
    expect(helloWorld.packages.length, helloWorld.packages.join("\n")).toBeLessThanOrEqual(MAX_PACKAGES);
    expect(helloWorld.megabytes).toBeLessThanOrEqual(MAX_MEGABYTES);
    expect(names).toEqual(expect.arrayContaining(["unruffled", "zod", "@fastify/busboy", "jose", "pino"]));
  });

  it("has one zod, the project's own, which unruffled uses", () => {
    expect(helloWorld.packages.filter((folder) => /(^|\/)node_modules\/zod$/.test(folder))).toEqual([
      "node_modules/zod",
    ]);
  });
});

describe("an app started as the enrollment app's start script starts it", () => {
  it("runs under node --conditions=source, which the installed package ignores", async () => {
    const server = await serveProject(["--conditions=source", "server.ts"]);
    try {
      const note = await fetch(`${server.base}/notes/3?page=4&size=5`);
      expect([note.status, await note.json()]).toEqual([200, { id: 3, title: "Note 3", page: 4, size: 5 }]);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe("the packed `unruffled` command", () => {
  it("prints the package's version: npx unruffled --version", async () => {
    const outcome = await run("npx", ["--no-install", "unruffled", "--version"], project);
    expect(outcome).toEqual({ code: 0, stdout: `${MANIFEST.version}\n`, stderr: "" });
  });

  it("writes the document: npx unruffled openapi", async () => {
    const stdout = await succeed("npx", ["--no-install", "unruffled", "openapi", "app.ts"], project);
    const document = JSON.parse(stdout);
    expect(document.info).toEqual({ title: "Notes", version: "1.0.0" });
    expect(document.paths["/notes/{note_id}"].get.operationId).toBe("get_note");
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(["NewNote", "NoteResponse"]),
    );
  });

  it("lists the routes: npx unruffled routes", async () => {
    const stdout = await succeed("npx", ["--no-install", "unruffled", "routes", "app.ts"], project);
    expect(stdout).toBe(
      [
        "METHOD  PATH                    NAME         PARAMETERS",
        "POST    /notes                  create_note  json: title, tags",
        "GET     /notes/{note_id}        get_note     path: note_id; query: page, size",
        "POST    /notes/{note_id}/files  attach_file  path: note_id; form: caption; file: file",
        "",
      ].join("\n"),
    );
  });
});

describe.each([
  ["the newest zod of the peer range", () => newestZod],
  [`the lowest zod of the peer range (${LOWEST_ZOD})`, () => LOWEST_ZOD],
])("a project on %s", (_name, zodVersion) => {
  beforeAll(async () => {
    await install([`zod@${zodVersion()}`, "--save-exact"]);
  }, 300_000);

  it("has that one zod", async () => {
    expect(await installedZod()).toEqual({ copies: ["node_modules/zod"], version: zodVersion() });
  });

  it("type-checks its app with strict settings against the shipped declarations, with its own TypeScript", async () => {
    const outcome = await run(join(project, "node_modules/.bin/tsc"), ["-p", "tsconfig.json"], project);
    expect(outcome).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("calls its app through unruffled/testing", async () => {
    const stdout = await succeed(process.execPath, ["check.ts"], project);
    expect(JSON.parse(stdout)).toEqual({
      note: { status: 200, title: "Note 7", body: { id: 7, title: "Note 7", page: 2, size: 10 } },
      invalid: {
        status: 422,
        body: {
          detail: [
            {
              loc: ["path", "note_id"],
              msg: "Too small: expected number to be >=1",
              type: "too_small",
              input: 0,
            },
            {
              loc: ["query", "size"],
              msg: "Too big: expected number to be <=50",
              type: "too_big",
              input: 99,
            },
          ],
        },
      },
      created: { status: 201, body: { created: { title: "Groceries", tags: ["home"] } } },
      uploaded: {
        status: 200,
        body: { note_id: 7, caption: "The list", name: "list.txt", size: 10, text: "milk, eggs" },
      },
    });
  });

  it("serves its app on Node, the pages' assets from the package's own copies, and stops on SIGTERM", async () => {
    const server = await serveProject();
    try {
      const note = await fetch(`${server.base}/notes/3?page=4&size=5`);
      expect([note.status, await note.json()]).toEqual([200, { id: 3, title: "Note 3", page: 4, size: 5 }]);
      const document = await fetch(`${server.base}/openapi/openapi.json`);
      expect(document.status).toBe(200);
      expect(Object.keys(((await document.json()) as { paths: object }).paths)).toEqual([
        "/notes",
        "/notes/{note_id}",
        "/notes/{note_id}/files",
      ]);
      const copies = join(project, "node_modules/unruffled/dist/docs-assets");
      // fetch asks for gzip and decompresses: the bytes read are the copy's, decompressed.
      for (const [name, file] of [
        ["swagger-ui-bundle.js", "swagger-ui-dist/swagger-ui-bundle.js.gz"],
        ["swagger-ui.css", "swagger-ui-dist/swagger-ui.css.gz"],
        ["favicon-32x32.png", "swagger-ui-dist/favicon-32x32.png"],
      ] as const) {
        const asset = await fetch(`${server.base}/openapi/assets/${name}`);
        const served = Buffer.from(await asset.arrayBuffer());
        const copy = await readFile(join(copies, file));
        const expected = file.endsWith(".gz") ? gunzipSync(copy) : copy;
        expect([name, asset.status, served.equals(expected)]).toEqual([name, 200, true]);
      }
      const redoc = await fetch(`${server.base}/openapi/assets/redoc.standalone.js`);
      const redocText = await redoc.text();
      expect([redoc.status, redocText.length > 1_000_000, redocText.includes("cdn.redoc.ly")]).toEqual([
        200,
        true,
        false,
      ]);
      expect(existsSync(join(project, "node_modules/swagger-ui-dist"))).toBe(false);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it.skipIf(noChromium)(
    "renders its documentation pages in Chromium, with no request off the machine and no console error",
    async () => {
      const server = await serveProject();
      const browser = await launchChromium();
      const offMachine: string[] = [];
      const consoleErrors: string[] = [];
      try {
        // Every request that is not to the app is refused and remembered.
        await browser.context.route("**/*", (route) => {
          const url = new URL(route.request().url());
          if (url.hostname === "127.0.0.1") return route.continue();
          offMachine.push(url.href);
          return route.abort();
        });
        const tab = await browser.context.newPage();
        tab.on("request", (request) => {
          const url = new URL(request.url());
          if (url.protocol !== "data:" && url.protocol !== "blob:" && url.hostname !== "127.0.0.1") {
            offMachine.push(url.href);
          }
        });
        tab.on("console", (message) => {
          if (message.type() === "error") consoleErrors.push(message.text());
        });
        tab.on("pageerror", (error) => consoleErrors.push(error.message));

        expect((await tab.goto(`${server.base}/openapi/docs`))?.status()).toBe(200);
        await expect.poll(() => tab.locator(".opblock").count(), { timeout: 30_000 }).toBe(3);
        await tab.locator(".info .title").filter({ hasText: "Notes" }).waitFor();

        expect((await tab.goto(`${server.base}/openapi/redoc`))?.status()).toBe(200);
        const labels = ["Create a note", "Read a note", "Attach a file to a note"];
        await expect
          .poll(
            async () => {
              const headings = await tab.locator("h2").allInnerTexts();
              return labels.filter((label) => headings.includes(label));
            },
            { timeout: 30_000 },
          )
          .toEqual(labels);
        await tab.close();
      } finally {
        await browser.close();
        await server.stop();
      }
      expect({ offMachine, consoleErrors }).toEqual({ offMachine: [], consoleErrors: [] });
    },
    120_000,
  );
});
