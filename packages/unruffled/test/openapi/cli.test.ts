import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envelopeValidationHandler, fixtureApp, OPENAPI } from "./fixture-app.ts";
import { extrasApp } from "./fixture-extras-app.ts";
import { REPOSITORY_ROOT } from "./support/repository.ts";

const CLI = join(REPOSITORY_ROOT, "packages/unruffled/src/cli.ts");
const BIN = join(REPOSITORY_ROOT, "node_modules/.bin/unruffled");
const APP_MODULE = fileURLToPath(new URL("./fixture-app-module.ts", import.meta.url));
const relativeAppModule = APP_MODULE.slice(REPOSITORY_ROOT.length);

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[]): Promise<Outcome> {
  // The bin's `env node` must find the Node that runs the tests (24), not the system one.
  const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}` };
  return new Promise((resolve) => {
    execFile(file, args, { cwd: REPOSITORY_ROOT, env }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}
const cli = (...args: string[]) => run(process.execPath, ["--conditions=source", CLI, ...args]);
const USAGE = "Usage: unruffled openapi <app module> [--export <name>] [--out <file>]\n";
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value));

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "unruffled-cli-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("unruffled openapi", () => {
  it("writes the document of the module's `app` export to --out, indented", async () => {
    const out = join(folder, "openapi.json");
    const outcome = await cli("openapi", relativeAppModule, "--out", out);
    expect(outcome).toEqual({ code: 0, stdout: "", stderr: `Wrote the OpenAPI document to ${out}\n` });
    const text = await readFile(out, "utf8");
    expect(text).toBe(`${JSON.stringify(fixtureApp().openapi(), null, 2)}\n`);
  });

  it.each([
    ["a folder that does not exist", "missing/openapi.json", "its folder does not exist"],
    ["a folder", ".", "it is a folder"],
  ])("says it cannot write --out to %s, without a stack, exit code 1", async (_case, name, reason) => {
    const out = join(folder, name);
    expect(await cli("openapi", relativeAppModule, "--out", out)).toEqual({
      code: 1,
      stdout: "",
      stderr: `unruffled openapi: Cannot write ${out}: ${reason}.\n`,
    });
  });

  it("writes the webhooks of the app into the document", async () => {
    const outcome = await cli("openapi", fileURLToPath(new URL("./fixture-extras-app.ts", import.meta.url)));
    expect(outcome.code).toBe(0);
    const written = JSON.parse(outcome.stdout);
    expect(Object.keys(written.webhooks)).toEqual(["new-subscription"]);
    expect(written).toEqual(asJson(extrasApp().openapi()));
  });

  it("writes the named export's document to standard output", async () => {
    const outcome = await cli("openapi", APP_MODULE, "--export", "envelopeApp");
    expect(outcome.code).toBe(0);
    expect(JSON.parse(outcome.stdout)).toEqual(
      asJson(fixtureApp({ exceptionHandlers: [envelopeValidationHandler] }).openapi()),
    );
  });

  it("runs as the package's `unruffled` bin", async () => {
    const outcome = await run(BIN, ["openapi", relativeAppModule]);
    expect(outcome.code).toBe(0);
    expect(JSON.parse(outcome.stdout).info).toEqual(OPENAPI.info);
  });

  it("still takes the module as --app, the deprecated form of 0.1.0, and says so on standard error", async () => {
    const outcome = await cli("openapi", "--app", relativeAppModule);
    expect(outcome.code).toBe(0);
    expect(outcome.stderr).toBe(
      `unruffled openapi: --app is deprecated; give the app module first, as serve and routes take it: unruffled openapi ${relativeAppModule}\n`,
    );
    expect(JSON.parse(outcome.stdout)).toEqual(asJson(fixtureApp().openapi()));
  });

  it.each([
    ["no module", []],
    ["two modules", ["a.ts", "b.ts"]],
    ["a module and --app", ["a.ts", "--app", "b.ts"]],
  ])("asks for exactly one app module when given %s, with the usage and exit code 2", async (_case, args) => {
    expect(await cli("openapi", ...args)).toEqual({
      code: 2,
      stdout: "",
      stderr: `Give one app module.\n${USAGE}`,
    });
  });

  it("names what the module exports when it has no app", async () => {
    const outcome = await cli("openapi", APP_MODULE, "--export", "missing");
    expect(outcome).toEqual({
      code: 2,
      stdout: "",
      stderr: `${APP_MODULE} has no app as the export "missing" (it exports: app, envelopeApp). Export the value of createApp(...).\n${USAGE}`,
    });
  });

  it("refuses an unknown command with the list of commands", async () => {
    const outcome = await cli("serve-me");
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toBe(
      'Unknown command "serve-me".\n\nUsage: unruffled <command> [options]\n       unruffled --version\n\nCommands:\n  openapi    Write the OpenAPI 3.1 document of an app as JSON\n    unruffled openapi <app module> [--export <name>] [--out <file>]\n' +
        "  client     Write a typed TypeScript client of an app's routes (--check: fail when the file is stale)\n    unruffled client <app module> [--export <name>] --out <file> [--check]\n" +
        "  serve      Serve an app on the runtime's own server (--workers, --watch for development)\n    unruffled serve <app module> [--export <name>] [--port <port>] [--host <host>] [--workers <n>] [--watch] [--log-level <level>]\n" +
        "  routes     List an app's routes: method, path, name, parameters by source\n    unruffled routes <app module> [--export <name>]\n",
    );
  });
});
