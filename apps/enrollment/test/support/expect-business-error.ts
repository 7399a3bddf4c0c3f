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
