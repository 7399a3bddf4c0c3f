// Correctness checks, run on every server before it is measured: the suite's valid requests must
// get the exact answer, its invalid ones a 4xx. Nobody wins by skipping validation.
import { isDeepStrictEqual } from "node:util";
import { appliesTo, type Check } from "./suites/suite.ts";

export type CheckReport = { failures: string[]; warnings: string[] };

/**
 * Invalid input must be refused: a success (or no code at all) or a server error disqualifies,
 * another 4xx than the expected one is only a warning. True when exactly the expected code came.
 */
function judgeRefusal(
  name: string,
  expected: number,
  got: number | null,
  shown: string,
  report: CheckReport,
): boolean {
  if (got === null || got < 400 || got >= 500) {
    report.failures.push(`${name}: expected ${expected}, got ${got} ${shown}`);
  } else if (got !== expected) {
    report.warnings.push(`${name}: expected ${expected}, got ${got}`);
  }
  return got === expected;
}

/** The `code` of a `{ code, message, data }` envelope, or null when the body is not one. */
function envelopeCode(text: string): number | null {
  try {
    const code = (JSON.parse(text) as { code?: unknown }).code;
    return typeof code === "number" ? code : null;
  } catch {
    return null;
  }
}

/** Runs the checks that apply to the server `serverId` (fetch decompresses a compressed body). */
export async function validate(port: number, checks: Check[], serverId: string): Promise<CheckReport> {
  const report: CheckReport = { failures: [], warnings: [] };
  const { failures, warnings } = report;
  for (const check of checks) {
    if (!appliesTo(check, serverId)) continue;
    const init: RequestInit = {
      method: check.method,
      headers: {
        ...(check.body === undefined ? {} : { "content-type": "application/json" }),
        ...check.headers,
      },
    };
    if (check.body !== undefined) init.body = check.body;
    let status: number;
    let contentType: string;
    let text: string;
    let headers: Headers;
    try {
      const response = await fetch(`http://127.0.0.1:${port}${check.path}`, init);
      status = response.status;
      headers = response.headers;
      contentType = response.headers.get("content-type") ?? "";
      text = await response.text();
    } catch (error) {
      failures.push(`${check.name}: request failed (${(error as Error).message})`);
      continue;
    }
    const shown = text.length > 120 ? `${text.slice(0, 117)}...` : text;
    if (check.status >= 400) {
      const exact = judgeRefusal(check.name, check.status, status, shown, report);
      if (exact && check.status === 422 && !contentType.includes("json")) {
        warnings.push(`${check.name}: 422 without a JSON body (${contentType || "no content-type"})`);
      }
      continue;
    }
    if (status !== check.status) {
      failures.push(`${check.name}: expected ${check.status}, got ${status} ${shown}`);
      continue;
    }
    for (const [name, expected] of Object.entries(check.responseHeaders ?? {})) {
      const got = headers.get(name);
      if (got !== expected)
        failures.push(
          `${check.name}: header ${name} ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`,
        );
    }
    if (check.envelopeCode !== undefined) {
      judgeRefusal(`${check.name} (envelope code)`, check.envelopeCode, envelopeCode(text), shown, report);
      continue;
    }
    if (check.text !== undefined) {
      if (!contentType.startsWith("text/plain")) failures.push(`${check.name}: content-type ${contentType}`);
      if (text !== check.text) failures.push(`${check.name}: body ${JSON.stringify(shown)}`);
    }
    if (check.json !== undefined) {
      if (!contentType.startsWith("application/json"))
        failures.push(`${check.name}: content-type ${contentType}`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = Symbol("not JSON");
      }
      if (!isDeepStrictEqual(parsed, check.json)) failures.push(`${check.name}: body ${shown}`);
    }
  }
  return report;
}
