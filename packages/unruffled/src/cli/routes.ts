import { parseArgs, resolve } from "../node-builtins.ts";
import { type CliCommand, CliUsageError } from "./command.ts";
import { loadApp } from "./load-app.ts";
import { routesTable } from "./routes-table.ts";

const USAGE = "unruffled routes <app module> [--export <name>]";

/**
 * `unruffled routes src/app.ts`: imports the app module (which builds every route, so definition
 * errors surface here) and prints its routes as a table.
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
    const { values, positionals } = parseArgs({
      args: [...args],
      options: { export: { type: "string" } },
      strict: true,
      allowPositionals: true,
    });
    if (positionals.length !== 1) throw new CliUsageError("Give one app module.");
    const app = await loadApp(resolve(io.cwd, positionals[0]!), values.export);
    await io.write(routesTable(app.routes));
    return 0;
  },
};
