// How every command loads the app module: the import styles of a usual TypeScript project, and
// what a project that Node loads as CommonJS is told.
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CliProcess, FIXTURES, runCli } from "./support/cli-process.ts";

// A process start gets 60 s on a busy machine (see support/cli-process.ts): a test gets more.
vi.setConfig({ testTimeout: 120_000 });

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "unruffled-load-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe.each([
  ["the .js files tsc emits (moduleResolution nodenext)", "js-specifiers", "Hello from .js specifiers!"],
  ["the .ts files themselves (allowImportingTsExtensions)", "ts-specifiers", "Hello from .ts specifiers!"],
])("a project whose relative imports name %s", (_style, fixture, greeting) => {
  const app = join(FIXTURES, fixture, "app.ts");

  it("is served by unruffled serve", async () => {
    const server = new CliProcess(["serve", app, "--port", "0"]);
    try {
      const url = await server.served();
      const answer = await fetch(`${url}/hello`);
      expect([answer.status, await answer.text()]).toEqual([200, greeting]);
    } finally {
      await server.stop("SIGKILL");
    }
  });

  it("is listed by unruffled routes", async () => {
    expect(await runCli("routes", app)).toEqual({
      code: 0,
      stdout: "METHOD  PATH    NAME   PARAMETERS\nGET     /hello  hello  -\n",
      stderr: "",
    });
  });

  it("is documented by unruffled openapi", async () => {
    const outcome = await runCli("openapi", app);
    expect([outcome.code, outcome.stderr]).toEqual([0, ""]);
    expect(JSON.parse(outcome.stdout).paths["/hello"].get.operationId).toBe("hello");
  });

  it("gets a client from unruffled client", async () => {
    const out = join(folder, `${fixture}.generated.ts`);
    expect(await runCli("client", app, "--out", out)).toEqual({
      code: 0,
      stdout: "",
      stderr: `Wrote the client to ${out}\n`,
    });
    expect(await readFile(out, "utf8")).toContain("hello(");
  });
});

// docs/command-line.md: `./x.cjs` loads `./x.cts` beside it when it does not exist, as `./x.js` loads `./x.ts`.
it("loads the .cts file for a relative import of a .cjs file that does not exist", async () => {
  const project = join(folder, "cts-import");
  await mkdir(project, { recursive: true });
  await writeFile(join(project, "package.json"), '{ "type": "module" }\n');
  // The repository's packages, as a project's own node_modules would hold them.
  await symlink(
    fileURLToPath(new URL("../../../../node_modules", import.meta.url)),
    join(project, "node_modules"),
  );
  await writeFile(join(project, "names.cts"), 'module.exports = { PATH: "/from-cts" as string };\n');
  await writeFile(
    join(project, "app.ts"),
    [
      'import { createApp } from "unruffled";',
      'import { PlainTextResponse } from "unruffled/http";',
      'import { endpoint, path } from "unruffled/route";',
      'import names from "./names.cjs";',
      'const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("hi") });',
      'export const app = createApp({ routes: [path(names.PATH, { endpoint: hello, name: "hello" })] });',
      "",
    ].join("\n"),
  );
  expect(await runCli("routes", join(project, "app.ts"))).toEqual({
    code: 0,
    stdout: "METHOD  PATH       NAME   PARAMETERS\nGET     /from-cts  hello  -\n",
    stderr: "",
  });
});

it("still fails on a relative import whose file exists neither as .js nor as .ts", async () => {
  const app = join(folder, "missing-import.ts");
  await writeFile(app, 'export { app } from "./nowhere.js";\n');
  const outcome = await runCli("routes", app);
  expect(outcome.code).toBe(1);
  expect(outcome.stderr).toContain(`Cannot find module '${join(folder, "nowhere.js")}' imported from ${app}`);
});

it("tells a project that Node loads as CommonJS, in one line, to set type module", async () => {
  const project = join(folder, "commonjs");
  await rm(project, { recursive: true, force: true });
  await import("node:fs/promises").then((fs) => fs.mkdir(project));
  // What `npm init -y` writes, and an app module as the getting-started page has it.
  await writeFile(join(project, "package.json"), '{ "name": "shop", "type": "commonjs" }\n');
  await writeFile(
    join(project, "app.ts"),
    'import { createApp } from "unruffled";\nexport const app = createApp({ routes: [] });\n',
  );
  expect(await runCli("serve", join(project, "app.ts"), "--port", "0")).toEqual({
    code: 1,
    stdout: "",
    stderr: `unruffled serve: ${join(project, "app.ts")} is loaded as CommonJS, where import and export are syntax errors, because ${join(project, "package.json")} says "type": "commonjs". Set "type": "module" there: npm pkg set type=module\n`,
  });
});
