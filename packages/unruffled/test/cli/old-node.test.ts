// The `unruffled` bin on a Node below the floor, for real: it needs a Node older than 22.18 beside
// the repository's own, such as Debian's /usr/bin/node (20), and skips saying so when there is none.
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { expect, it } from "vitest";
import { FIXTURES, ROOT } from "./support/cli-process.ts";

const BIN = join(ROOT, "packages/unruffled/bin/unruffled.js");

/** The first `node` on PATH (or at /usr/bin/node) older than 22.18, with its version. */
function olderNode(): { file: string; version: string } | undefined {
  const candidates = [...(process.env.PATH ?? "").split(delimiter), "/usr/bin"]
    .map((folder) => join(folder, "node"))
    .filter((file) => existsSync(file));
  for (const file of new Set(candidates.map((candidate) => realpathSync(candidate)))) {
    const version = execFileSync(file, ["--version"], { encoding: "utf8" }).trim();
    const [major, minor] = version.slice(1).split(".").map(Number) as [number, number];
    if (major < 22 || (major === 22 && minor < 18)) return { file, version };
  }
  return undefined;
}

/** Runs the bin on `node` to its end. */
function runBin(
  node: string,
  args: readonly string[],
): Promise<{ code: unknown; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(node, [BIN, ...args], { cwd: ROOT }, (error, stdout, stderr) =>
      resolve({ code: error ? error.code : 0, stdout, stderr }),
    );
  });
}

it("tells an older Node in one line which Node it needs, with no stack, and exits 1", async ({ skip }) => {
  const node = olderNode();
  skip(node === undefined, "no Node older than 22.18 on PATH or at /usr/bin/node");
  expect(await runBin(node!.file, ["serve", join(FIXTURES, "shop-app.ts"), "--port", "0"])).toEqual({
    code: 1,
    stdout: "",
    stderr: `unruffled: Node 22.18 or later is needed to run TypeScript app modules (this is Node ${node!.version}).\n`,
  });
});

it("prints the version on an older Node too, with no warning", async ({ skip }) => {
  const node = olderNode();
  skip(node === undefined, "no Node older than 22.18 on PATH or at /usr/bin/node");
  const manifest = JSON.parse(readFileSync(join(ROOT, "packages/unruffled/package.json"), "utf8"));
  expect(await runBin(node!.file, ["--version"])).toEqual({
    code: 0,
    stdout: `${manifest.version}\n`,
    stderr: "",
  });
});

it("tells an older Node given no app module which Node it needs, without speaking of app modules", async ({
  skip,
}) => {
  const node = olderNode();
  skip(node === undefined, "no Node older than 22.18 on PATH or at /usr/bin/node");
  expect(await runBin(node!.file, ["--help"])).toEqual({
    code: 1,
    stdout: "",
    stderr: `unruffled: Node 22.18 or later is needed (this is Node ${node!.version}).\n`,
  });
});

// docs/command-line.md: "An older Node is told so in one line (exit code 1), for a TypeScript or a
// JavaScript app module alike."
it("tells an older Node the same one line for a JavaScript app module", async ({ skip }) => {
  const node = olderNode();
  skip(node === undefined, "no Node older than 22.18 on PATH or at /usr/bin/node");
  const folder = mkdtempSync(join(tmpdir(), "unruffled-old-node-"));
  try {
    const app = join(folder, "app.js");
    writeFileSync(
      app,
      'import { createApp } from "unruffled";\nexport const app = createApp({ routes: [] });\n',
    );
    expect(await runBin(node!.file, ["routes", app])).toEqual({
      code: 1,
      stdout: "",
      stderr: `unruffled: Node 22.18 or later is needed to run TypeScript app modules (this is Node ${node!.version}).\n`,
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
