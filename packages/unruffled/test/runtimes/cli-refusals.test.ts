// What Bun and Deno cannot do is refused before anything starts, with the way to do without it.
// (Bun runs --workers: test/runtimes/workers.test.ts.)
import { fileURLToPath } from "node:url";
import { endProcessGroups, runToEnd } from "process-support";
import { afterAll, describe, expect, it } from "vitest";
import { packageRoot, serveCommand } from "./runtime-process.ts";

const fixture = fileURLToPath(new URL("./fixture-app.ts", import.meta.url));

afterAll(endProcessGroups);

it("refuses --workers on Deno, with exit code 2", async () => {
  const [command, args] = serveCommand("deno", fixture, ["--workers", "2"]);
  const { code, stderr } = await runToEnd(command, args, { cwd: packageRoot });
  expect(code).toBe(2);
  expect(stderr).toMatch(
    /^--workers is not supported on Deno \S+: run one process per core behind a load balancer, or serve on Node or Bun\.\nUsage: unruffled serve /,
  );
});

it("says in one line, without a stack, when --host names no host it can resolve, under --workers 2 on Bun", async () => {
  // Bun's primary picks the shared free port on that host before it forks.
  const [command, args] = serveCommand("bun", fixture, ["--host", "no-such-host.invalid", "--workers", "2"]);
  const { code, stderr } = await runToEnd(command, args, { cwd: packageRoot });
  expect([code, stderr]).toEqual([
    1,
    "unruffled serve: Cannot listen on no-such-host.invalid:0 (ENOTFOUND); choose another --port or --host.\n",
  ]);
});

describe.each([
  ["bun", "Bun", "bun --watch"],
  ["deno", "Deno", "deno run --watch"],
] as const)("unruffled serve on %s", (runtime, name, watch) => {
  it("refuses --watch, which restarts through node --watch, and names the runtime's own", async () => {
    const [command, args] = serveCommand(runtime, fixture, ["--watch"]);
    const { code, stderr } = await runToEnd(command, args, { cwd: packageRoot });
    expect(code).toBe(2);
    expect(stderr).toMatch(
      new RegExp(
        `^--watch restarts through node --watch, which ${name} [\\d.]+ does not have; use ${watch} instead\\.\\n`,
      ),
    );
  });

  // docs/command-line.md's errors: a listen that fails for the --port or --host given is one line, exit 1.
  it("says in one line, without a stack, when --host names no host it can resolve", async () => {
    const [command, args] = serveCommand(runtime, fixture, ["--host", "no-such-host.invalid"]);
    const { code, stderr } = await runToEnd(command, args, { cwd: packageRoot });
    expect([code, stderr]).toEqual([
      1,
      "unruffled serve: Cannot listen on no-such-host.invalid:0 (ENOTFOUND); choose another --port or --host.\n",
    ]);
  });
});
