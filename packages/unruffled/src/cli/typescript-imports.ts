// `./x.js` → `./x.ts`, and the same for the module flavours; `.jsx` is left out (Node runs no TSX).
const TWINS: Readonly<Record<string, string>> = { ".js": ".ts", ".mjs": ".mts", ".cjs": ".cts" };
const RELATIVE_JS = /^\.\.?\/.*(\.[mc]?js)$/;
const TYPESCRIPT_PARENT = /^file:.*\.[mc]?ts$/;

let registered = false;

/**
 * Lets Node load a TypeScript project written for `moduleResolution: nodenext`, where `tsc` wants a
 * relative import to name the `.js` file it would emit (`import { routes } from "./routes.js"` for
 * `routes.ts`). When such an import from a TypeScript module (outside node_modules) finds no `.js`
 * file, the `.ts` file beside it is loaded instead, as tsx and ts-node do. Imports that name the
 * `.ts` file work without it. Registered once, before the app module is imported (on Node and Deno;
 * Bun resolves such imports itself).
 *
 * @example registerTypeScriptImports(); await import(pathToFileURL("src/app.ts").href);
 */
export function registerTypeScriptImports(): void {
  if (registered) return;
  registered = true;
  const { registerHooks } = process.getBuiltinModule("node:module");
  // Bun has no module hooks, and needs none: its resolver tries `./x.ts` for `./x.js` itself.
  if (typeof registerHooks !== "function") return;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      try {
        return nextResolve(specifier, context);
      } catch (error) {
        const twin = typescriptTwin(specifier, context.parentURL);
        const code = (error as { code?: string }).code;
        if (twin === undefined || (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND"))
          throw error;
        try {
          return nextResolve(twin, context);
        } catch {
          // Neither file exists: Node's own error names the one the module asked for.
          throw error;
        }
      }
    },
  });
}

/** `./routes.ts` for `./routes.js` imported from a TypeScript module of the project, else undefined. */
function typescriptTwin(specifier: string, parentUrl: string | undefined): string | undefined {
  const match = RELATIVE_JS.exec(specifier);
  if (match === null || parentUrl === undefined || !TYPESCRIPT_PARENT.test(parentUrl)) return undefined;
  if (parentUrl.includes("/node_modules/")) return undefined;
  return specifier.slice(0, -match[1]!.length) + TWINS[match[1]!];
}
