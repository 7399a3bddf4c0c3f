// bench:types — what type-checking costs, side by side: the same API at several sizes for unruffled
// (its server, its testClient calls, its generated client), Hono with hc, and oRPC. Each program is
// checked by tsc --extendedDiagnostics --singleThreaded, in interleaved rounds; the medians of its
// CPU time and memory are kept.
//
//   npm run bench:types                      # 100, 400, 1,000 and 5,000 routes, 3 runs each
//   npm run bench:types -- --sizes 100,400 --runs 1
//   npm run bench:types -- --layout file     # every route in one module instead of modules of 50
//   npm run bench:types -- --only unruffled --sizes 400,1000 --runs 21   # its programs alone, many rounds
//   npm run bench:types -- --only unruffled --kinds deps --runs 64       # only the routes with a shared dependency
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type Measurement, type Sample, sampleProgram, summarize } from "./measure.ts";
import type { Layout } from "./programs.ts";
import { printReport } from "./report.ts";
import { writePrograms } from "./write-programs.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const WORK = join(ROOT, "bench/results/types");

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "100,400,1000,5000" },
    runs: { type: "string", default: "3" },
    layout: { type: "string", default: "modules" },
    only: { type: "string" },
    kinds: { type: "string", default: "plain,deps" },
  },
});
// unruffled's programs by kind: "plain" routes, and routes with a shared dependency ("deps"); the
// empty baseline is measured with either.
const KIND_OF_ROLE: Record<string, string> = {
  server: "plain",
  testClient: "plain",
  client: "plain",
  depsServer: "deps",
  depsTestClient: "deps",
  depsClient: "deps",
};
const kinds = values.kinds.split(",");
const measuredRole = (framework: string, role: string) =>
  framework !== "unruffled" || KIND_OF_ROLE[role] === undefined || kinds.includes(KIND_OF_ROLE[role]);
const only = values.only?.split(",");
const unknown = only?.filter((name) => !["unruffled", "hono", "orpc"].includes(name)) ?? [];
if (unknown.length > 0) {
  process.stderr.write(`--only takes unruffled, hono and orpc, not ${unknown.join(", ")}\n`);
  process.exit(2);
}
if (values.layout !== "modules" && values.layout !== "file") {
  process.stderr.write(`--layout is "modules" or "file", not ${JSON.stringify(values.layout)}\n`);
  process.exit(2);
}
const layout: Layout = values.layout;
const sizes = values.sizes.split(",").map(Number);
const runs = Number(values.runs);

const results: Record<number, Record<string, Record<string, Measurement>>> = {};
for (const size of sizes) {
  process.stderr.write(`${size} routes: writing the programs\n`);
  const folders = await writePrograms(size, WORK, [], layout);
  const programs = Object.entries(folders)
    .filter(([framework]) => only === undefined || only.includes(framework))
    .flatMap(([framework, roles]) =>
      Object.entries(roles)
        .filter(([role]) => measuredRole(framework, role))
        .map(([role, folder]) => ({ framework, role, folder })),
    );
  // Rounds interleave the programs, so that a slow moment of the machine falls on all of them.
  const samples = new Map<string, Sample[]>();
  for (let round = 0; round < runs; round++) {
    for (const { framework, role, folder } of programs) {
      const sample = await sampleProgram(folder);
      samples.set(`${framework}/${role}`, [...(samples.get(`${framework}/${role}`) ?? []), sample]);
      process.stderr.write(
        `  ${framework} ${role}: ${sample.cpuSeconds.toFixed(2)} s CPU, ${sample.megabytes.toFixed(0)} MB${sample.errors.length > 0 ? `, ${sample.errors.length} errors` : ""}\n`,
      );
    }
  }
  results[size] = {};
  for (const { framework, role } of programs) {
    results[size]![framework] ??= {};
    results[size]![framework]![role] = summarize(samples.get(`${framework}/${role}`)!);
  }
}

const commit = await new Promise<string>((resolve) =>
  execFile("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT }, (_error, stdout) =>
    resolve(stdout.trim()),
  ),
);
const report = printReport(results, sizes, layout);
process.stdout.write(report);
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
await writeFile(
  join(ROOT, "bench/results", `types-${stamp}.json`),
  `${JSON.stringify({ commit, layout, runs, sizes, results }, null, 2)}\n`,
);
