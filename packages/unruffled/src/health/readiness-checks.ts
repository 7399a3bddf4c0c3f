import type { ResolvedHealth } from "./health-options.ts";

/** One check's outcome, as the readiness answer shows it. */
export interface CheckResult {
  status: "pass" | "fail";
  /** Milliseconds until it answered or timed out, to a tenth. */
  durationMs: number;
  /** Why it failed: "timed out after N ms", or the error's name (its message goes to the log only). */
  error?: string;
}

export interface ReadinessReport {
  status: "pass" | "fail";
  checks: Record<string, CheckResult>;
}

/** Where a check that starts or stops failing is told. */
export interface CheckLog {
  warn(details: Record<string, unknown>, message: string): void;
  info(details: Record<string, unknown>, message: string): void;
}

// What the timeout's side of the race gives: no value a check resolves to can be mistaken for it.
const TIMED_OUT = Symbol("timed out");

/**
 * Runs the readiness checks concurrently, each with its own timeout. Probes that arrive while a run
 * is under way share it, so a load balancer probing often never piles up database pings. A check
 * that starts failing is logged once (with its error), and once again when it passes again.
 */
export class ReadinessChecks {
  private readonly checks: ResolvedHealth["checks"];
  private readonly log: () => CheckLog;
  private running: Promise<ReadinessReport> | undefined;
  private readonly failing = new Set<string>();

  constructor(checks: ResolvedHealth["checks"], log: () => CheckLog) {
    this.checks = checks;
    this.log = log;
  }

  get count(): number {
    return this.checks.length;
  }

  /** Every check's result; `pass` only when all passed. */
  run(): Promise<ReadinessReport> {
    this.running ??= this.runAll().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async runAll(): Promise<ReadinessReport> {
    const results = await Promise.all(this.checks.map((check) => this.runOne(check)));
    const report: ReadinessReport = { status: "pass", checks: {} };
    this.checks.forEach(({ name }, index) => {
      const result = results[index]!;
      report.checks[name] = result;
      if (result.status === "fail") report.status = "fail";
    });
    return report;
  }

  private async runOne({ name, check, timeoutMs }: ResolvedHealth["checks"][number]): Promise<CheckResult> {
    const started = performance.now();
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
    });
    // Whether it threw, apart from what: `Promise.reject()` and `throw undefined` fail too.
    let threw = false;
    let failure: unknown;
    let outcome: unknown;
    try {
      // A check that throws synchronously fails like one that rejects.
      outcome = await Promise.race([Promise.resolve().then(() => check(controller.signal)), timedOut]);
    } catch (error) {
      threw = true;
      failure = error;
    } finally {
      clearTimeout(timer);
    }
    const durationMs = Math.round((performance.now() - started) * 10) / 10;
    if (outcome === TIMED_OUT) {
      controller.abort(new Error(`The health check "${name}" timed out after ${timeoutMs} ms`));
      return this.failed(name, durationMs, `timed out after ${timeoutMs} ms`, undefined);
    }
    if (threw) {
      return this.failed(name, durationMs, failure instanceof Error ? failure.name : "failed", failure);
    }
    if (this.failing.delete(name)) this.log().info({ check: name }, "Health check passes again");
    return { status: "pass", durationMs };
  }

  private failed(name: string, durationMs: number, error: string, cause: unknown): CheckResult {
    if (!this.failing.has(name)) {
      this.failing.add(name);
      this.log().warn({ check: name, err: cause, reason: error }, "Health check failed");
    }
    return { status: "fail", durationMs, error };
  }
}
