import { expect } from "vitest";
import { BusinessError } from "../../src/services.ts";

/** Asserts that `promise` rejects with a BusinessError carrying exactly this code and message. */
export async function expectBusinessError(promise: Promise<unknown>, code: number, message: string) {
  const error = await promise.then(
    (value) => new Error(`expected a BusinessError, got ${JSON.stringify(value)}`),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(BusinessError);
  expect({ code: (error as BusinessError).code, message: (error as Error).message }).toEqual({
    code,
    message,
  });
}

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
