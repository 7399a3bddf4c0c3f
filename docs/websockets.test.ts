import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_HIGH_WATER_MARK,
  DEFAULT_MAX_PAYLOAD,
  DEFAULT_PING_INTERVAL,
} from "../packages/unruffled/src/websocket/analyse-websocket.ts";

// The WebSockets page quotes a route's defaults in its prose and in "Settings of a route": when a
// default changes, this fails until the page follows. (1 MiB for maxPayload is also checked on the
// wire: test/websocket/lifecycle.test.ts "takes a message of 1 MiB by default…".)
const page = readFileSync(new URL("websockets.md", import.meta.url), "utf8");
const MiB = 1024 * 1024;

/** 30000 as the page writes it: "30 000". */
function thousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
}

/** The default column of the settings table's row for `option`. */
function tableDefault(option: string): string {
  const row = new RegExp(`^\\| \`${option}\` +\\| ([^|]+?) +\\|`, "m").exec(page);
  if (row === null) throw new Error(`websockets.md's settings table has no row for ${option}`);
  return row[1]!;
}

describe("docs/websockets.md", () => {
  it("gives the defaults of the code in the settings table", () => {
    expect(tableDefault("maxPayload")).toBe(`${DEFAULT_MAX_PAYLOAD / MiB} MiB`);
    expect(tableDefault("highWaterMark")).toBe(`${DEFAULT_HIGH_WATER_MARK / MiB} MiB`);
    expect(tableDefault("lowWaterMark")).toBe("a quarter of the high mark");
    expect(tableDefault("pingInterval")).toBe(`${thousands(DEFAULT_PING_INTERVAL)} ms`);
  });

  it("gives the same defaults in its prose", () => {
    expect(page).toContain(`\`maxPayload\` (default ${DEFAULT_MAX_PAYLOAD / MiB} MiB)`);
    expect(page).toContain(`(\`highWaterMark\`, default ${DEFAULT_HIGH_WATER_MARK / MiB} MiB)`);
    expect(page).toContain(`Every \`pingInterval\` (default ${DEFAULT_PING_INTERVAL / 1000} s;`);
  });
});
