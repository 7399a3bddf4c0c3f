import type { App } from "../app/app.ts";
import { dirname, existsSync, join, pathToFileURL, readFileSync } from "../node-builtins.ts";
import { CliFailure, CliUsageError } from "./command.ts";
import { registerTypeScriptImports } from "./typescript-imports.ts";

/**
 * Imports an app module and returns its app: the named export when one is given, else the default
 * export, else the export `app`. The export may be the app itself or a factory (a function, possibly
 * async, taking no argument) that returns it. Relative imports may name the `.ts` file or the `.js`
 * file `tsc` emits for it (see registerTypeScriptImports).
 *
 * @example const app = await loadApp("/srv/api/src/app.ts", "app");
 */
export async function loadApp(modulePath: string, exportName: string | undefined): Promise<App> {
  if (!existsSync(modulePath)) throw new CliUsageError(`Cannot find the app module ${modulePath}.`);
  registerTypeScriptImports();
  quietCommonJsWarning();
  const module = (await import(pathToFileURL(modulePath).href).catch((error: unknown) => {
    throw commonJsFailure(error, modulePath) ?? error;
  })) as Record<string, unknown>;
  let candidate = exportName !== undefined ? module[exportName] : (module.default ?? module.app);
  if (typeof candidate === "function" && !isApp(candidate)) candidate = await candidate();
  if (!isApp(candidate)) {
    const wanted =
      exportName !== undefined ? `the export "${exportName}"` : 'a default export or an export "app"';
    const found = Object.keys(module).join(", ") || "nothing";
    throw new CliUsageError(
      `${modulePath} has no app as ${wanted} (it exports: ${found}). Export the value of createApp(...).`,
    );
  }
  return candidate;
}

// Checked by shape, so that an app built by another copy of the package is accepted too.
function isApp(value: unknown): value is App {
  return (
    typeof value === "object" &&
    value !== null &&
    Array.isArray((value as App).routes) &&
    typeof (value as App).settings === "object" &&
    typeof (value as App).exceptionHandlers?.forClass === "function"
  );
}

const COMMONJS_SYNTAX_ERRORS = ["Cannot use import statement outside a module", "Unexpected token 'export'"];

/**
 * The one line for an app module that Node loaded as CommonJS, where `import` is a syntax error:
 * what `npm init -y` writes (`"type": "commonjs"`) does that. Undefined for any other error.
 */
function commonJsFailure(error: unknown, modulePath: string): CliFailure | undefined {
  if (!(error instanceof SyntaxError) || !COMMONJS_SYNTAX_ERRORS.includes(error.message)) return undefined;
  const manifest = nearestPackageJson(modulePath);
  const because =
    manifest === undefined
      ? ""
      : manifest.type === undefined
        ? `, because ${manifest.file} has no "type"`
        : `, because ${manifest.file} says "type": ${JSON.stringify(manifest.type)}`;
  return new CliFailure(
    `${modulePath} is loaded as CommonJS, where import and export are syntax errors${because}. Set "type": "module" there: npm pkg set type=module`,
  );
}

/** The package.json that decides how Node loads `file`, and the "type" it gives, if any. */
function nearestPackageJson(file: string): { file: string; type: unknown } | undefined {
  for (let folder = dirname(file); ; folder = dirname(folder)) {
    const candidate = join(folder, "package.json");
    if (existsSync(candidate)) {
      const manifest = JSON.parse(readFileSync(candidate, "utf8")) as { type?: unknown };
      return { file: candidate, type: manifest.type };
    }
    if (dirname(folder) === folder) return undefined;
  }
}

let quieted = false;

/**
 * Drops Node's warning "Failed to load the ES module … set "type": "module"": commonJsFailure says
 * the same in the command's one line. Every other warning is printed as before.
 */
function quietCommonJsWarning(): void {
  if (quieted) return;
  quieted = true;
  const printers = process.listeners("warning");
  process.removeAllListeners("warning");
  process.on("warning", (warning) => {
    if (warning.message.startsWith("Failed to load the ES module")) return;
    for (const print of printers) print(warning);
  });
}
