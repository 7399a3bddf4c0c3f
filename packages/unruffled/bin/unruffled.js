#!/usr/bin/env node
// The `unruffled` command. Installed (under node_modules) it runs the compiled CLI, dist/cli.js.
// In a checkout of the repository, where Node can run TypeScript, it runs the sources and resolves
// workspace packages by their "source" condition, so the command needs no build during development.
import { existsSync, readFileSync } from "node:fs";
import module from "node:module";
import { fileURLToPath } from "node:url";

const COMMANDS_WITH_APP_MODULE = ["serve", "routes", "openapi", "client"];

// `--version` is read here, on any Node: it needs neither TypeScript nor the floor below.
if (process.argv[2] === "--version") {
  process.stdout.write(
    `${JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version}\n`,
  );
  process.exit(0);
}

// The one Node floor of unruffled (README, engines): Node runs TypeScript without a flag from 22.18.
// Checked before anything is imported, so an older Node gets this line instead of a loader's stack;
// this file stays plain JavaScript that old versions can parse.
const FLOOR = [22, 18];
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < FLOOR[0] || (major === FLOOR[0] && minor < FLOOR[1])) {
  const what = COMMANDS_WITH_APP_MODULE.includes(process.argv[2]) ? " to run TypeScript app modules" : "";
  process.stderr.write(
    `unruffled: Node ${FLOOR.join(".")} or later is needed${what} (this is Node ${process.version}).\n`,
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
