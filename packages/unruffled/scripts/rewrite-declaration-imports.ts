// tsc rewrites `./x.ts` to `./x.js` in the JavaScript it emits but not in declaration files
// (microsoft/TypeScript#61037). Recent TypeScript resolves either, but older versions and some editors
// only resolve `.js`, so the declarations get the same specifiers as the JavaScript. `.ts` and `.js`
// have the same length: the declaration maps stay exact.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

const RELATIVE_TS_SPECIFIER = /(\bfrom\s+|\bimport\s*\(\s*)(["'])(\.\.?\/[^"']*?)\.ts\2/g;

/** Rewrites the relative `.ts` specifiers of every `.d.ts` under `folder`; returns how many files changed. */
async function rewriteDeclarationImports(folder: string): Promise<number> {
  let changed = 0;
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".d.ts")) continue;
    const file = join(entry.parentPath, entry.name);
    const text = await readFile(file, "utf8");
    const rewritten = text.replace(RELATIVE_TS_SPECIFIER, "$1$2$3.js$2");
    if (rewritten === text) continue;
    await writeFile(file, rewritten);
    changed++;
  }
  return changed;
}

const folder = process.argv[2] ?? "dist";
const changed = await rewriteDeclarationImports(folder);
console.log(`Declarations: .ts import specifiers rewritten to .js in ${changed} files of ${folder}`);
