/** The JavaScript runtime the process runs on. */
export type Runtime = "node" | "bun" | "deno";

const globals = globalThis as { Bun?: { version: string }; Deno?: { version: { deno: string } } };

/**
 * Which runtime runs this process: Bun and Deno announce themselves with a global of their name
 * (both also define `process`, so Node is what remains).
 *
 * @example if (currentRuntime() !== "node") throw new Error("--workers needs node:cluster");
 */
export function currentRuntime(): Runtime {
  if (globals.Bun !== undefined) return "bun";
  if (globals.Deno !== undefined) return "deno";
  return "node";
}

/** The runtime with its version, as progress lines and error messages name it: "Bun 1.4.5". */
export function runtimeLabel(runtime: Runtime = currentRuntime()): string {
  if (runtime === "bun") return `Bun ${globals.Bun!.version}`;
  if (runtime === "deno") return `Deno ${globals.Deno!.version.deno}`;
  return `Node ${process.versions.node}`;
}
