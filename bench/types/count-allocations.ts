// What the testClient's calls add to a type-check next to what the generated client adds, counted
// in allocations and instantiations: tsc --extendedDiagnostics --singleThreaded with GOMAXPROCS=1
// gives the same counts at every run, whatever the machine's load, so a change of a few percent in
// the types shows (CPU seconds, as bench:types measures them, need many rounds for that).
//
//   npm run bench:types:count                        # 400 and 1,000 routes, plain and deps
//   npm run bench:types:count -- --sizes 400 --kinds plain
//
// "calls" is the testClient program minus its server program (the same routes without the calls),
// "client" the generated client's program minus an empty one. The programs use the built package
// (dist), as installed: the npm script builds it first.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { writePrograms } from "./write-programs.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
const WORK = join(ROOT, "bench/results/types-count");

/** tsc's counts of one program. */
interface Counts {
  allocations: number;
  instantiations: number;
  /** "Memory used", in MB. */
  megabytes: number;
  errors: string[];
}

function count(folder: string): Promise<Counts> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [TSC, "-p", folder, "--extendedDiagnostics", "--singleThreaded"],
      { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GOMAXPROCS: "1" } },
      (_error, stdout, stderr) => {
        const output = stdout + stderr;
        const figure = (label: string) => {
          const match = output.match(new RegExp(`^${label}:\\s+([\\d.]+)`, "m"));
          return match === null ? Number.NaN : Number(match[1]);
        };
        resolve({
          allocations: figure("Memory allocs"),
          instantiations: figure("Instantiations"),
          megabytes: figure("Memory used") / 1024,
          errors: output.split("\n").filter((line) => /error TS\d+/.test(line)),
        });
      },
    );
  });
}

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "400,1000" },
    kinds: { type: "string", default: "plain,deps" },
  },
});
const sizes = values.sizes.split(",").map(Number);
const kinds = values.kinds.split(",");
const roles = {
  plain: { server: "server", calls: "testClient", client: "client" },
  deps: { server: "depsServer", calls: "depsTestClient", client: "depsClient" },
} as const;

const k = (n: number) => `${(n / 1000).toFixed(1)}k`;
const rows: string[][] = [
  [
    "routes",
    "kind",
    "server allocs",
    "calls allocs",
    "client allocs",
    "ratio",
    "calls inst.",
    "client inst.",
    "calls MB",
    "client MB",
  ],
];
for (const size of sizes) {
  const folders = (await writePrograms(size, WORK)).unruffled!;
  const baseline = await count(folders.baseline!);
  for (const kind of kinds) {
    const role = roles[kind as keyof typeof roles];
    if (role === undefined) throw new Error(`--kinds takes plain and deps, not ${kind}`);
    const server = await count(folders[role.server]!);
    const calls = await count(folders[role.calls]!);
    const client = await count(folders[role.client]!);
    for (const [name, counts] of [
      ["server", server],
      ["calls", calls],
      ["client", client],
    ] as const) {
      if (counts.errors.length > 0)
        process.stderr.write(`${size} ${kind} ${name}:\n${counts.errors.join("\n")}\n`);
    }
    const callsAllocations = calls.allocations - server.allocations;
    const clientAllocations = client.allocations - baseline.allocations;
    rows.push([
      `${size}`,
      kind,
      `${server.allocations}`,
      k(callsAllocations),
      k(clientAllocations),
      `${(callsAllocations / clientAllocations).toFixed(3)}×`,
      k(calls.instantiations - server.instantiations),
      k(client.instantiations - baseline.instantiations),
      (calls.megabytes - server.megabytes).toFixed(1),
      (client.megabytes - baseline.megabytes).toFixed(1),
    ]);
  }
}
const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
for (const row of rows)
  process.stdout.write(`${row.map((cell, column) => cell.padStart(widths[column]!)).join("  ")}\n`);
