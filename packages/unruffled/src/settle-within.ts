/**
 * A promise's outcome, or `timedOut()`'s error once `ms` have passed without one: for the answers of
 * a server across the network (a store, a broker) that may take the connection and then say nothing.
 * The timer is cleared as soon as the promise settles; a late outcome is dropped.
 *
 * @example await settleWithin(client.publish(topic, message), 5_000, () => new Error("Redis did not answer"))
 */
export function settleWithin<T>(promise: Promise<T>, ms: number, timedOut: () => Error): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(timedOut()), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
