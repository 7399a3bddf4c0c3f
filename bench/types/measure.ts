import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

const TSC = fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url));

/** One check of one program. */
export interface Sample {
  /** CPU seconds (user + system) of tsc: other work on the machine hardly moves it. */
  cpuSeconds: number;
  /** tsc's "Total time" (wall clock), in seconds. */
  wallSeconds: number;
  /** tsc's "Memory used", in MB. */
  megabytes: number;
  instantiations: number;
  errors: string[];
}

/** What one program costs to check: the medians of its samples, and its errors. */
export interface Measurement {
  seconds: number;
  wallSeconds: number;
  megabytes: number;
  instantiations: number;
  errors: string[];
  /** The distinct error codes, such as TS2589 (instantiation excessively deep). */
  errorCodes: string[];
  /** Each round's CPU seconds and megabytes, in round order: what one program adds to another is read round by round. */
  rounds: Array<{ seconds: number; megabytes: number }>;
}

/**
 * Checks the program in `folder` (its tsconfig.json) once with tsc --extendedDiagnostics,
 * single-threaded; `/usr/bin/time` gives its CPU time, which the other core's load leaves alone.
 * GOMAXPROCS=1 keeps tsc's garbage collector on that one thread too: with two, the collector marks
 * on the idle core as well, and that CPU time grows with how idle the core is, not with the work
 * (at 400 routes it made the testClient calls read 0.25 s instead of 0.12 s).
 */
export function sampleProgram(folder: string): Promise<Sample> {
  return new Promise((resolve) => {
    execFile(
      "/usr/bin/time",
      ["-f", "cpu %U %S", process.execPath, TSC, "-p", folder, "--extendedDiagnostics", "--singleThreaded"],
      { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GOMAXPROCS: "1" } },
      (_error, stdout, stderr) => {
        const output = stdout + stderr;
        const cpu = output.match(/^cpu ([\d.]+) ([\d.]+)$/m);
        resolve({
          cpuSeconds: cpu === null ? Number.NaN : Number(cpu[1]) + Number(cpu[2]),
          wallSeconds: figure(output, "Total time"),
          megabytes: figure(output, "Memory used") / 1024,
          instantiations: figure(output, "Instantiations"),
          errors: output.split("\n").filter((line) => /error TS\d+/.test(line)),
        });
      },
    );
  });
}

/** The medians of a program's samples. */
export function summarize(samples: readonly Sample[]): Measurement {
  const errors = samples[0]!.errors;
  return {
    seconds: median(samples.map((sample) => sample.cpuSeconds)),
    wallSeconds: median(samples.map((sample) => sample.wallSeconds)),
    megabytes: median(samples.map((sample) => sample.megabytes)),
    instantiations: median(samples.map((sample) => sample.instantiations)),
    errors,
    errorCodes: [...new Set(errors.map((line) => line.match(/error (TS\d+)/)![1]!))],
    rounds: samples.map((sample) => ({ seconds: sample.cpuSeconds, megabytes: sample.megabytes })),
  };
}

function figure(output: string, label: string): number {
  const match = output.match(new RegExp(`^${label}:\\s+([\\d.]+)`, "m"));
  return match === null ? Number.NaN : Number(match[1]);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
