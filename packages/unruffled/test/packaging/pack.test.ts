// The package as a user gets it: build, `npm pack`, install the tarball in a new project outside the
// repository, type-check an app against the shipped declarations, run it on Node, and run the
// packed `unruffled` command. The build and the pack run in a copy of the package, so that the
// repository's own files (and anyone testing beside them) are left alone.
import { type ChildProcess, execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { endProcessGroups, spawnGroup } from "process-support";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

const REPOSITORY_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const PACKAGE_DIR = join(REPOSITORY_ROOT, "packages/unruffled");
const CONSUMER_FILES = fileURLToPath(new URL("./consumer/", import.meta.url));
const TSC = join(REPOSITORY_ROOT, "node_modules/.bin/tsc");

// Child processes run on the Node that runs the tests (24), and without the npm_* variables of an
// enclosing `npm test`, which would point npm at the repository.
const env: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_")),
);
env.PATH = `${dirname(process.execPath)}${delimiter}${process.env.PATH}`;

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function run(file: string, args: readonly string[], cwd: string): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

async function succeed(file: string, args: readonly string[], cwd: string): Promise<string> {
  const outcome = await run(file, args, cwd);
  if (outcome.code !== 0) {
    throw new Error(
      `${file} ${args.join(" ")} exited ${outcome.code}:\n${outcome.stdout}\n${outcome.stderr}`,
    );
  }
  return outcome.stdout;
}

interface PackedFile {
  path: string;
}

let folder: string;
let stagedPackage: string;
let project: string;
let packedFiles: string[];

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "unruffled-pack-"));
  const rootPackage = JSON.parse(await readFile(join(REPOSITORY_ROOT, "package.json"), "utf8"));
  // The npm cache the repository's install filled (or the one npm was told to use).
  const cache =
    process.env.npm_config_cache ??
    (await succeed("npm", ["config", "get", "cache"], REPOSITORY_ROOT)).trim();

  // A copy of the package where the base tsconfig and node_modules are where the repository has them.
  const stage = join(folder, "stage");
  stagedPackage = join(stage, "packages/unruffled");
  await mkdir(stagedPackage, { recursive: true });
  await cp(join(REPOSITORY_ROOT, "tsconfig.base.json"), join(stage, "tsconfig.base.json"));
  await symlink(join(REPOSITORY_ROOT, "node_modules"), join(stage, "node_modules"), "dir");
  await cp(PACKAGE_DIR, stagedPackage, {
    recursive: true,
    filter: (source) => !/[\\/](dist|node_modules|test)$/.test(source.slice(PACKAGE_DIR.length)),
  });
  await succeed("npm", ["run", "build"], stagedPackage);
  const packed = JSON.parse(
    await succeed(
      "npm",
      ["pack", "--json", "--ignore-scripts", "--pack-destination", folder, "--cache", cache],
      stagedPackage,
    ),
  ) as { filename: string; files: PackedFile[] }[];
  packedFiles = packed[0]!.files.map((file) => file.path).sort();
  const tarball = join(folder, packed[0]!.filename);

  project = join(folder, "project");
  await cp(CONSUMER_FILES, project, { recursive: true });
  await writeFile(
    join(project, "package.json"),
    `${JSON.stringify({ name: "notes", private: true, type: "module" }, null, 2)}\n`,
  );
  await succeed(
    "npm",
    [
      "install",
      tarball,
      "zod@4.6.7",
      `@types/node@${rootPackage.devDependencies["@types/node"]}`,
      "--save-exact",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      "--ignore-scripts",
      "--cache",
      cache,
    ],
    project,
  );
}, 120_000);

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

describe("a project that installed the tarball", () => {
  it("type-checks its app with strict settings against the shipped declarations", async () => {
    const outcome = await run(TSC, ["-p", "tsconfig.json"], project);
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

  it("serves its app on Node, with the documentation pages, and stops on SIGTERM", async () => {
    const server: ChildProcess = spawnGroup(process.execPath, ["server.ts"], { cwd: project, env });
    try {
      const lines = createInterface({ input: server.stdout! });
      const [first] = await Promise.race([
        (async () => {
          for await (const line of lines) return [line];
          return [undefined];
        })(),
        new Promise<never>((_, reject) => server.once("exit", (code) => reject(new Error(`exited ${code}`)))),
      ]);
      const { port } = JSON.parse(first!) as { port: number };
      const base = `http://127.0.0.1:${port}`;

      const note = await fetch(`${base}/notes/3?page=4&size=5`);
      expect([note.status, await note.json()]).toEqual([200, { id: 3, title: "Note 3", page: 4, size: 5 }]);
      const document = await fetch(`${base}/openapi/openapi.json`);
      expect(document.status).toBe(200);
      expect(Object.keys(((await document.json()) as { paths: object }).paths)).toEqual([
        "/notes",
        "/notes/{note_id}",
        "/notes/{note_id}/files",
      ]);
      // The pages' assets come from the packages the tarball installed.
      const asset = await fetch(`${base}/openapi/assets/swagger-ui-bundle.js`);
      expect([asset.status, (await asset.arrayBuffer()).byteLength > 100_000]).toEqual([200, true]);

      const exited = new Promise<number | null>((resolve) => server.once("exit", resolve));
      server.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      server.kill("SIGKILL");
    }
  });

  it("runs the packed `unruffled` command: npx unruffled openapi", async () => {
    const stdout = await succeed("npx", ["--no-install", "unruffled", "openapi", "app.ts"], project);
    const document = JSON.parse(stdout);
    expect(document.info).toEqual({ title: "Notes", version: "1.0.0" });
    expect(document.paths["/notes/{note_id}"].get.operationId).toBe("get_note");
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(["NewNote", "NoteResponse"]),
    );
  });

  it("runs the packed `unruffled` command: npx unruffled routes", async () => {
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
