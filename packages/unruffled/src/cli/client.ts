import { generateClient } from "../client-generator/index.ts";
import { fsPromises, resolve } from "../node-builtins.ts";
import { readAppArguments } from "./app-arguments.ts";
import { type CliCommand, CliFailure, CliUsageError, writeOutput } from "./command.ts";
import { loadApp } from "./load-app.ts";

const USAGE = "unruffled client <app module> [--export <name>] --out <file> [--check]";

/**
 * `unruffled client src/app.ts --out src/client.generated.ts`: imports the app module and writes a
 * typed client of its routes. With `--check` it writes nothing and exits 1 when the file differs
 * from what the app generates now (for CI).
 *
 * @example
 * npx unruffled client apps/enrollment/src/server.ts --out apps/enrollment/src/client.generated.ts --check
 */
export const clientCommand: CliCommand = {
  name: "client",
  usage: USAGE,
  summary: "Write a typed TypeScript client of an app's routes (--check: fail when the file is stale)",
  async run(args, io) {
    const { modulePath, exportName, values } = readAppArguments(args, io.cwd, {
      out: { type: "string" },
      check: { type: "boolean" },
    });
    if (values.out === undefined) throw new CliUsageError("Give the file to write with --out <file>.");
    const out = resolve(io.cwd, values.out);
    const source = generateClient(await loadApp(modulePath, exportName));
    if (values.check) {
      const current = await fsPromises()
        .readFile(out, "utf8")
        .catch((error: NodeJS.ErrnoException) => {
          if (error.code === "ENOENT") return undefined;
          throw error;
        });
      if (current === undefined) throw new CliFailure(`${out} does not exist; write it without --check.`);
      if (current !== source) {
        throw new CliFailure(
          `${out} is not the client the app generates now; write it again: unruffled client ${args.filter((arg) => arg !== "--check").join(" ")}`,
        );
      }
      await io.error(`${out} is up to date.\n`);
      return 0;
    }
    await writeOutput(out, source);
    await io.error(`Wrote the client to ${out}\n`);
    return 0;
  },
};
