import { fsPromises, parseArgs, resolve } from "../node-builtins.ts";
import { type DocumentedApp, generateOpenApi } from "../openapi/generate.ts";
import { type CliCommand, CliUsageError } from "./command.ts";
import { loadApp } from "./load-app.ts";

const USAGE = "unruffled openapi --app <module path> [--export <name>] [--out <file>]";

/**
 * `unruffled openapi --app src/app.ts [--export app] [--out openapi.json]`: imports the app module
 * and writes its OpenAPI document as indented JSON to the file, or to standard output.
 *
 * @example
 * npx unruffled openapi --app apps/enrollment/src/app.ts --out openapi.json
 */
export const openapiCommand: CliCommand = {
  name: "openapi",
  usage: USAGE,
  summary: "Write the OpenAPI 3.1 document of an app as JSON",
  async run(args, io) {
    const { values } = parseArgs({
      args: [...args],
      options: {
        app: { type: "string" },
        export: { type: "string" },
        out: { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    });
    if (values.app === undefined) throw new CliUsageError("--app is required.");
    const app: DocumentedApp = await loadApp(resolve(io.cwd, values.app), values.export);
    const json = `${JSON.stringify(generateOpenApi(app), null, 2)}\n`;
    if (values.out === undefined) {
      await io.write(json);
    } else {
      const out = resolve(io.cwd, values.out);
      await fsPromises().writeFile(out, json);
      await io.error(`Wrote the OpenAPI document to ${out}\n`);
    }
    return 0;
  },
};
