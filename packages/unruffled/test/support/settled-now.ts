// What promises have settled to by now, without waiting: for tests where a promise that never
// settles is the bug (a reader that is never answered), so it fails by value, not by a timeout.

/**
 * Each promise's value (or `{ rejected: error }`) if it has settled by now, else "pending".
 *
 * @example expect(await settledNow([iterator.next()])).toEqual([{ done: true, value: undefined }]);
 */
export function settledNow(promises: readonly Promise<unknown>[]): Promise<unknown[]> {
  return Promise.all(
    promises.map((promise) =>
      // A settled promise's reaction is queued before the already resolved "pending"'s.
      Promise.race([promise, Promise.resolve("pending")]).catch((error: unknown) => ({ rejected: error })),
    ),
  );
}
