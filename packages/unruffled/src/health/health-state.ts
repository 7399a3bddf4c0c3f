import type { ResolvedHealth } from "./health-options.ts";
import { type CheckLog, ReadinessChecks } from "./readiness-checks.ts";

/**
 * What the health routes answer from: whether the app has started, whether it drains, whether
 * anyone asked for readiness (a drain waits only for someone who watches), and its checks.
 */
export class HealthState {
  readonly options: ResolvedHealth;
  readonly checks: ReadinessChecks;
  /** True once the `onStartup` hooks have finished (at once for an app without any). */
  started: boolean;
  /** True from the start of a drain (or of `close()`) until the app starts again. */
  draining = false;
  /** True once readiness was asked for since the app started: someone (a load balancer, a kubelet) watches it. */
  probed = false;

  constructor(options: ResolvedHealth, started: boolean, log: () => CheckLog) {
    this.options = options;
    this.started = started;
    this.checks = new ReadinessChecks(options.checks, log);
  }
}
