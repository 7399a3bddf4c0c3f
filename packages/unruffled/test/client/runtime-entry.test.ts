// unruffled/client runs in browsers: compiled, it is its own files and nothing of the server.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";

const PACKAGE = fileURLToPath(new URL("../../", import.meta.url));
const TSC = join(PACKAGE, "../../node_modules/typescript/bin/tsc");
let out: string | undefined;
afterAll(async () => {
  if (out !== undefined) await rm(out, { recursive: true, force: true });
});

it("compiles to the client's own modules, which import only each other", async () => {
  out = await mkdtemp(join(tmpdir(), "unruffled-client-entry-"));
  // tsc emits every module the entry reaches, so the emitted files are its whole import graph.
  await promisify(execFile)(process.execPath, [
    TSC,
    "--ignoreConfig",
    "--rootDir",
    join(PACKAGE, "src"),
    "--outDir",
    out,
    "--module",
    "nodenext",
    "--target",
    "es2023",
    "--strict",
    "--skipLibCheck",
    "--allowImportingTsExtensions",
    "--rewriteRelativeImportExtensions",
    "--types",
    "node",
    join(PACKAGE, "src/client/index.ts"),
  ]);
  const files = (await readdir(out, { recursive: true })).filter((file) => file.endsWith(".js")).sort();
  expect(files).toEqual([
    "client/client-options.js",
    "client/create-client.js",
    "client/decode-response.js",
    "client/encode-request.js",
    "client/failure-reason.js",
    "client/index.js",
    "client/operation-plan.js",
    "client/rate-limited.js",
    "client/results.js",
    "client/server-events.js",
    "client/websocket.js",
  ]);
  for (const file of files) {
    const text = await readFile(join(out, file), "utf8");
    const imports = [...text.matchAll(/(?:import|export)[^"']*from\s*["']([^"']+)["']/g)].map(
      (match) => match[1]!,
    );
    for (const specifier of imports) {
      expect(specifier, `${file} imports ${specifier}`).toMatch(/^\.\/[a-z-]+\.js$/);
    }
  }
});
