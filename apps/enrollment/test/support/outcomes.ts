import { BusinessError } from "../../src/services.ts";

/** What a settled service call came to: "ok", or the business error's code and message. */
export function outcome(result: PromiseSettledResult<unknown>): string {
  if (result.status === "fulfilled") {
    return "ok";
  }
  const error = result.reason;
  return error instanceof BusinessError ? `${error.code} ${error.message}` : `unexpected ${String(error)}`;
}

/** How many times each outcome occurred. */
export function tally(outcomes: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of outcomes) {
    counts[item] = (counts[item] ?? 0) + 1;
  }
  return counts;
}
