/**
 * Calls `probe` until it returns something other than `undefined` and resolves with that; rejects
 * with "timed out waiting for <what>" once `timeoutMs` has passed.
 * @example const pid = await waitFor("an answer from a worker", () => pidOf(port), { timeoutMs: 20_000 });
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  { timeoutMs = 15_000, intervalMs = 50 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
