// tsc writes into dist without emptying it, so a module deleted or renamed in src kept its built
// files there, and a local `npm pack` shipped them (a fresh clone has none). Emptying dist before
// the build would fix that too, but tests and benchmarks import dist while another build runs; this
// removes only the files no source module builds any more, after tsc wrote the others.
import { readdir, rm, stat } from "node:fs/promises";
import { join, relative } from "node:path";

const BUILT = /\.(?:js|d\.ts|d\.ts\.map)$/;

/** Removes the built files under `dist` (but `keep`) whose `.ts` module under `src` is gone; returns them. */
async function removeStaleBuilds(dist: string, src: string, keep: string): Promise<string[]> {
  const removed: string[] = [];
  for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
    const file = join(entry.parentPath, entry.name);
    if (!entry.isFile() || !BUILT.test(entry.name) || file.startsWith(keep)) continue;
    const module = join(src, relative(dist, file).replace(BUILT, ".ts"));
    if (await exists(module)) continue;
    await rm(file);
    removed.push(relative(dist, file));
  }
  return removed.sort();
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

const [dist = "dist", src = "src", keep = join(dist, "docs-assets")] = process.argv.slice(2);
const removed = await removeStaleBuilds(dist, src, keep);
if (removed.length > 0)
  console.log(`Removed ${removed.length} built files whose module is gone: ${removed.join(", ")}`);
