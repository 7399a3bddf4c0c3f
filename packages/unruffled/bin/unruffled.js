#!/usr/bin/env node
// The `unruffled` command. Installed (under node_modules) it runs the compiled CLI, dist/cli.js.
// In a checkout of the repository, where Node can run TypeScript, it runs the sources and resolves
// workspace packages by their "source" condition, so the command needs no build during development.
import { existsSync } from "node:fs";
import module from "node:module";
import { fileURLToPath } from "node:url";

// The one Node floor of unruffled (README, engines): Node runs TypeScript without a flag from 22.18.
// Checked before anything is imported, so an older Node gets this line instead of a loader's stack;
// this file stays plain JavaScript that old versions can parse.
const FLOOR = [22, 18];
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < FLOOR[0] || (major === FLOOR[0] && minor < FLOOR[1])) {
  process.stderr.write(
    `unruffled: Node ${FLOOR.join(".")} or later is needed to run TypeScript app modules (this is Node ${process.version}).\n`,
  );
  process.exit(1);
}

const sources = new URL("../src/cli.ts", import.meta.url);
const installed = fileURLToPath(import.meta.url)
  .split(/[\\/]/)
  .includes("node_modules");

if (installed || !existsSync(sources)) {
  await import("../dist/cli.js");
} else if (typeof module.registerHooks !== "function") {
  // Bun has no module hooks; it runs TypeScript itself, and takes the "source" condition as a flag:
  // `bun --conditions=source bin/unruffled.js` (Deno has the hooks and the same flag).
  await import(sources.href);
} else {
  // module.registerHooks: Node 22.15 and later, below the floor checked above.
  module.registerHooks({
    resolve: (specifier, context, nextResolve) =>
      nextResolve(specifier, { ...context, conditions: [...context.conditions, "source"] }),
  });
  await import(sources.href);
}
