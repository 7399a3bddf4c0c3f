import { readAppArguments } from "./app-arguments.ts";
import type { CliCommand } from "./command.ts";
import { loadApp } from "./load-app.ts";
import { routesTable } from "./routes-table.ts";

const USAGE = "unruffled routes <app module> [--export <name>]";

/**
 * `unruffled routes src/app.ts`: imports the app module (which builds every route, so definition
 * errors surface here) and prints its routes as a table, its WebSocket routes (method `WS`) last.
 *
 * @example
 * npx unruffled routes apps/enrollment/src/app.ts
 * // METHOD  PATH                      NAME           PARAMETERS
 * // GET     /api/enroll/student-list  list_students  query: page, size, search
 */
export const routesCommand: CliCommand = {
  name: "routes",
  usage: USAGE,
  summary: "List an app's routes: method, path, name, parameters by source",
  async run(args, io) {
    const { modulePath, exportName } = readAppArguments(args, io.cwd, {});
    const app = await loadApp(modulePath, exportName);
    await io.write(routesTable(app.routes, app.websocketRoutes));
    return 0;
  },
};
