import { readFileSync } from "node:fs";
import { DEFAULT_CLOSE_TIMEOUT_MS, DEFAULT_LIMITS } from "unruffled";
import { DEFAULT_HEARTBEAT_MS } from "unruffled/http";
import { describe, expect, it } from "vitest";

// The deployment page quotes the app's defaults and sets its proxy's numbers against them: when a
// default changes, this fails until the page (and its nginx block) follow.
const page = readFileSync(new URL("deployment.md", import.meta.url), "utf8");
const example = readFileSync(new URL("examples/deployment/server.ts", import.meta.url), "utf8");

/** Every number of seconds the page gives next to `name`: "name (5 s)", "`name`, 5 s", "name` (30 s)". */
function secondsQuoted(name: string): number[] {
  const quoted = [...page.matchAll(new RegExp(`${name}\`?,? \\(?(\\d+) s\\)?`, "g"))];
  if (quoted.length === 0) throw new Error(`deployment.md does not give ${name}`);
  return quoted.map((match) => Number(match[1]));
}

describe("docs/deployment.md", () => {
  it("gives the defaults of the code", () => {
    expect(new Set(secondsQuoted("keep_alive_timeout"))).toEqual(
      new Set([DEFAULT_LIMITS.keep_alive_timeout / 1000]),
    );
    expect(secondsQuoted("request_timeout")).toEqual([DEFAULT_LIMITS.request_timeout / 1000]);
    expect(secondsQuoted("`heartbeat` ms")).toEqual([DEFAULT_HEARTBEAT_MS / 1000]);
    expect(/cuts whatever is left at the deadline \(default (\d+) s\)/.exec(page)?.[1]).toBe(
      String(DEFAULT_CLOSE_TIMEOUT_MS / 1000),
    );
  });

  it("has nginx drop an idle upstream connection before the app does, and take the app's largest upload", () => {
    const idle = /keepalive_timeout (\d+)s;/.exec(page);
    expect(Number(idle![1]) * 1000).toBeLessThan(DEFAULT_LIMITS.keep_alive_timeout);
    const body = /client_max_body_size (\d+)m;/.exec(page);
    expect(Number(body![1]) * 1024 * 1024).toBeGreaterThanOrEqual(DEFAULT_LIMITS.upload_size);
  });

  it("has the example's primary wait longer than a worker's own close deadline", () => {
    const close = /app\.close\(\{ timeout: ([\d_]+) \}\)/.exec(example);
    const primary = /shutdownTimeout: ([\d_]+),/.exec(example);
    expect(Number(primary![1]!.replaceAll("_", ""))).toBeGreaterThan(Number(close![1]!.replaceAll("_", "")));
  });
});
