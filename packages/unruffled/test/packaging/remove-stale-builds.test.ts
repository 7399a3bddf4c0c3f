// The build's step that removes what tsc built for a module that is no longer in src, so that a
// local `npm pack` ships no module deleted or renamed since the last build.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

const SCRIPT = fileURLToPath(new URL("../../scripts/remove-stale-builds.ts", import.meta.url));
const MANIFEST = fileURLToPath(new URL("../../package.json", import.meta.url));

let folder: string;
afterEach(() => rm(folder, { recursive: true, force: true }));

async function tree(files: readonly string[]): Promise<void> {
  for (const file of files) {
    await mkdir(dirname(join(folder, file)), { recursive: true });
    await writeFile(join(folder, file), "");
  }
}

async function filesUnder(path: string): Promise<string[]> {
  const entries = await readdir(join(folder, path), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(folder.length + 1))
    .sort();
}

describe("remove-stale-builds", () => {
  it("removes the built files of modules gone from src, and keeps the others and the docs assets", async () => {
    folder = await mkdtemp(join(tmpdir(), "unruffled-stale-"));
    await tree([
      "src/index.ts",
      "src/route/path.ts",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/index.d.ts.map",
      "dist/route/path.js",
      "dist/route/path.d.ts",
      "dist/route/renamed.js",
      "dist/route/renamed.d.ts",
      "dist/route/renamed.d.ts.map",
      "dist/gone/module.js",
      "dist/docs-assets/redoc/bundles/redoc.standalone.js",
      "dist/docs-assets/NOTICES.md",
    ]);
    const { stdout } = await promisify(execFile)(process.execPath, [SCRIPT, "dist", "src"], { cwd: folder });

    expect(await filesUnder("dist")).toEqual([
      "dist/docs-assets/NOTICES.md",
      "dist/docs-assets/redoc/bundles/redoc.standalone.js",
      "dist/index.d.ts",
      "dist/index.d.ts.map",
      "dist/index.js",
      "dist/route/path.d.ts",
      "dist/route/path.js",
    ]);
    expect(stdout).toBe(
      "Removed 4 built files whose module is gone: gone/module.js, route/renamed.d.ts, route/renamed.d.ts.map, route/renamed.js\n",
    );
  });

  it("runs in the package's build, after tsc and before the declarations are rewritten", async () => {
    const build: string = JSON.parse(await readFile(MANIFEST, "utf8")).scripts.build;
    expect(build.split(" && ")).toEqual([
      "tsc -p tsconfig.build.json",
      "node scripts/remove-stale-builds.ts dist src",
      "node scripts/rewrite-declaration-imports.ts dist",
      "node scripts/copy-docs-assets.ts dist/docs-assets",
    ]);
  });
});
