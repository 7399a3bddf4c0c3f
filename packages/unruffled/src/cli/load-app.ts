import { pathToFileURL } from "node:url";
import type { DocumentedApp } from "../openapi/generate.ts";
import { CliUsageError } from "./command.ts";

/**
 * Imports an app module and returns its app: the named export when one is given, else the default
 * export, else the export `app`.
 *
 * @example const app = await loadApp("/srv/api/src/app.ts", "app");
 */
export async function loadApp(modulePath: string, exportName: string | undefined): Promise<DocumentedApp> {
  const module = (await import(pathToFileURL(modulePath).href)) as Record<string, unknown>;
  const candidate = exportName !== undefined ? module[exportName] : (module.default ?? module.app);
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
function isApp(value: unknown): value is DocumentedApp {
  return (
    typeof value === "object" &&
    value !== null &&
    Array.isArray((value as DocumentedApp).routes) &&
    typeof (value as DocumentedApp).settings === "object" &&
    typeof (value as DocumentedApp).exceptionHandlers?.forClass === "function"
  );
}
