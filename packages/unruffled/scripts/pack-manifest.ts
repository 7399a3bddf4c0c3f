// `npm pack` and `npm publish` ship package.json without the "source" export conditions.
// In the repository, "source" points each entry at its TypeScript sources so that the workspace
// runs without a build (tsconfig's customConditions, vitest, `node --conditions=source`). Installed,
// it would point into node_modules, where Node refuses to strip types
// (ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING): an app started with `--conditions=source`, as the
// enrollment app's start script is, would fail. prepack strips the conditions; postpack puts them
// back, each derived from its entry's "default" (./dist/route/index.js → ./src/route/index.ts).
//   node scripts/pack-manifest.ts strip|restore [package.json]
import { readFile, writeFile } from "node:fs/promises";

type Conditions = Record<string, string>;
type Manifest = { exports: Record<string, string | Conditions> } & Record<string, unknown>;

/** The manifest without "source" conditions. */
function stripSource(manifest: Manifest): Manifest {
  const exports = Object.fromEntries(
    Object.entries(manifest.exports).map(([entry, target]) => {
      if (typeof target === "string") return [entry, target];
      const { source: _source, ...rest } = target;
      return [entry, rest];
    }),
  );
  return { ...manifest, exports };
}

/** The manifest with a "source" condition first in every entry built into dist/. */
function restoreSource(manifest: Manifest): Manifest {
  const exports = Object.fromEntries(
    Object.entries(manifest.exports).map(([entry, target]) => {
      if (typeof target === "string" || target.default === undefined) return [entry, target];
      const built = /^\.\/dist\/(.*)\.js$/.exec(target.default);
      if (built === null) return [entry, target];
      const { source: _source, ...rest } = target;
      return [entry, { source: `./src/${built[1]}.ts`, ...rest }];
    }),
  );
  return { ...manifest, exports };
}

const [step, file = "package.json"] = process.argv.slice(2);
if (step !== "strip" && step !== "restore") {
  console.error("Usage: node scripts/pack-manifest.ts strip|restore [package.json]");
  process.exit(2);
}
const manifest = JSON.parse(await readFile(file, "utf8")) as Manifest;
const changed = step === "strip" ? stripSource(manifest) : restoreSource(manifest);
await writeFile(file, `${JSON.stringify(changed, null, 2)}\n`);
