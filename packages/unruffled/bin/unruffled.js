#!/usr/bin/env node
// The `unruffled` command. Installed (under node_modules) it runs the compiled CLI, dist/cli.js.
// In a checkout of the repository, where Node can run TypeScript, it runs the sources and resolves
// workspace packages by their "source" condition, so the command needs no build during development.
import { existsSync } from "node:fs";
import module from "node:module";
import { fileURLToPath } from "node:url";

const sources = new URL("../src/cli.ts", import.meta.url);
const installed = fileURLToPath(import.meta.url)
  .split(/[\\/]/)
  .includes("node_modules");

if (installed || !existsSync(sources)) {
  await import("../dist/cli.js");
} else {
  // module.registerHooks: Node 22.15 and later; the repository runs Node 24.
  module.registerHooks({
    resolve: (specifier, context, nextResolve) =>
      nextResolve(specifier, { ...context, conditions: [...context.conditions, "source"] }),
  });
  await import(sources.href);
}
