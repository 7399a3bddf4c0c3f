import type { App } from "../app/app.ts";
import { existsSync, pathToFileURL } from "../node-builtins.ts";
import { CliUsageError } from "./command.ts";

/**
 * Imports an app module and returns its app: the named export when one is given, else the default
 * export, else the export `app`. The export may be the app itself or a factory (a function, possibly
 * async, taking no argument) that returns it.
 *
 * @example const app = await loadApp("/srv/api/src/app.ts", "app");
 */
export async function loadApp(modulePath: string, exportName: string | undefined): Promise<App> {
  if (!existsSync(modulePath)) throw new CliUsageError(`Cannot find the app module ${modulePath}.`);
  const module = (await import(pathToFileURL(modulePath).href)) as Record<string, unknown>;
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
