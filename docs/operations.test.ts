import { readFileSync } from "node:fs";
import {
  DEFAULT_CHECK_TIMEOUT_MS,
  DEFAULT_CLOSE_TIMEOUT_MS,
  DEFAULT_DRAIN_DELAY_MS,
  DEFAULT_HEALTH_PATHS,
} from "unruffled";
import { describe, expect, it } from "vitest";

// The operators' page quotes the defaults and builds its probe settings on them: when a default
// changes, this fails until the page (and its Kubernetes, Docker and systemd numbers) follow.
const page = readFileSync(new URL("operations.md", import.meta.url), "utf8");

/** The number the page gives for a constant: "`NAME` = 5000". */
function quoted(name: string): number {
  const match = new RegExp(`\`${name}\` = (\\d+)`).exec(page);
  if (match === null) throw new Error(`operations.md does not give ${name}`);
  return Number(match[1]);
}

/** Every number a setting is given in the page's blocks (`periodSeconds: 2`, `TimeoutStopSec=20`). */
function settings(name: string): number[] {
  return [...page.matchAll(new RegExp(`${name}[:=]\\s*(\\d+)`, "g"))].map((match) => Number(match[1]));
}

const drainSeconds = DEFAULT_DRAIN_DELAY_MS / 1000;
const closeSeconds = DEFAULT_CLOSE_TIMEOUT_MS / 1000;

describe("docs/operations.md", () => {
  it("gives the defaults of the code", () => {
    expect(quoted("DEFAULT_DRAIN_DELAY_MS")).toBe(DEFAULT_DRAIN_DELAY_MS);
    expect(quoted("DEFAULT_CLOSE_TIMEOUT_MS")).toBe(DEFAULT_CLOSE_TIMEOUT_MS);
    expect(quoted("DEFAULT_CHECK_TIMEOUT_MS")).toBe(DEFAULT_CHECK_TIMEOUT_MS);
    expect(page).toContain(
      `paths: { live: "${DEFAULT_HEALTH_PATHS.live}", ready: "${DEFAULT_HEALTH_PATHS.ready}", startup: "${DEFAULT_HEALTH_PATHS.startup}" }`,
    );
    for (const comment of page.matchAll(/drain delay \((\d+) s\)/g))
      expect(Number(comment[1])).toBe(drainSeconds);
    for (const comment of page.matchAll(/close timeout \((\d+) s\)/g))
      expect(Number(comment[1])).toBe(closeSeconds);
  });

  it("has Kubernetes notice a drain before it ends, and wait for the close before it kills", () => {
    const [period] = settings("periodSeconds").slice(1, 2); // the readiness probe's (after the start-up probe's)
    const [, threshold] = settings("failureThreshold");
    const [grace] = settings("terminationGracePeriodSeconds");
    expect(period! * threshold!).toBeLessThan(drainSeconds);
    expect(drainSeconds).toBeLessThan(grace! - closeSeconds);
    const [probeTimeout] = settings("timeoutSeconds");
    expect(probeTimeout! * 1000).toBeGreaterThan(DEFAULT_CHECK_TIMEOUT_MS);
  });

  it("gives Docker, Compose and systemd more than the drain and the close", () => {
    const [dockerStop] = [...page.matchAll(/docker stop --time (\d+)/g)].map((match) => Number(match[1]));
    const [compose] = [...page.matchAll(/stop_grace_period: (\d+)s/g)].map((match) => Number(match[1]));
    const [systemd] = settings("TimeoutStopSec");
    for (const grace of [dockerStop, compose, systemd])
      expect(grace).toBeGreaterThan(drainSeconds + closeSeconds);
  });

  it("has HAProxy notice a drain before it ends", () => {
    const match = /check inter (\d+)s fall (\d+)/.exec(page);
    expect(Number(match![1]) * Number(match![2])).toBeLessThan(drainSeconds);
  });
});
