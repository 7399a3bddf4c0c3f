import type { ParseArgsOptionDescriptor } from "node:util";
import { parseArgs, resolve } from "../node-builtins.ts";
import { CliUsageError } from "./command.ts";

type OptionsConfig = Record<string, ParseArgsOptionDescriptor>;

/** What a command that loads an app was given: the module, `--export`, and its own options. */
export interface AppArguments<O extends OptionsConfig> {
  /** The app module's absolute path. */
  modulePath: string;
  exportName: string | undefined;
  values: ReturnType<typeof parseArgs<{ options: O; strict: true; allowPositionals: true }>>["values"];
}

/**
 * Reads a command line the way every command takes it: one app module, `--export <name>`, then
 * the command's own options. A command that declares `app` also reads the module from `--app`
 * (the spelling of `openapi`'s first version).
 *
 * @example readAppArguments(["src/app.ts", "--out", "openapi.json"], cwd, { out: { type: "string" } })
 */
export function readAppArguments<const O extends OptionsConfig>(
  args: readonly string[],
  cwd: string,
  options: O,
): AppArguments<O> {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: { export: { type: "string" }, ...options },
    strict: true,
    allowPositionals: true,
  });
  const fromFlag = (values as { app?: unknown }).app;
  const modules = typeof fromFlag === "string" ? [...positionals, fromFlag] : positionals;
  if (modules.length !== 1) throw new CliUsageError("Give one app module.");
  return {
    modulePath: resolve(cwd, modules[0]!),
    exportName: (values as { export?: string }).export,
    values: values as AppArguments<O>["values"],
  };
}
