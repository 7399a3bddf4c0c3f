import { resolve } from "../node-builtins.ts";
import { type DocumentedApp, generateOpenApi } from "../openapi/generate.ts";
import { readAppArguments } from "./app-arguments.ts";
import { type CliCommand, writeOutput } from "./command.ts";
import { loadApp } from "./load-app.ts";

const USAGE = "unruffled openapi <app module> [--export <name>] [--out <file>]";

/**
 * `unruffled openapi src/app.ts [--export app] [--out openapi.json]`: imports the app module and
 * writes its OpenAPI document as indented JSON to the file, or to standard output.
 *
 * @example
 * npx unruffled openapi apps/enrollment/src/server.ts --out openapi.json
 */
export const openapiCommand: CliCommand = {
  name: "openapi",
  usage: USAGE,
  summary: "Write the OpenAPI 3.1 document of an app as JSON",
  async run(args, io) {
    // The command's first version took the module as `--app <module>`: still read, with a warning, so
    // scripts written for it keep working.
    const { modulePath, exportName, values } = readAppArguments(args, io.cwd, {
      out: { type: "string" },
      app: { type: "string" },
    });
    if (values.app !== undefined) {
      await io.error(
        `unruffled openapi: --app is deprecated; give the app module first, as serve and routes take it: unruffled openapi ${values.app}\n`,
      );
    }
    const app: DocumentedApp = await loadApp(modulePath, exportName);
    const json = `${JSON.stringify(generateOpenApi(app), null, 2)}\n`;
    if (values.out === undefined) {
      await io.write(json);
    } else {
      const out = resolve(io.cwd, values.out);
      await writeOutput(out, json);
      await io.error(`Wrote the OpenAPI document to ${out}\n`);
    }
    return 0;
  },
};
