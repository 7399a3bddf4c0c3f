/**
 * Counts the queries a PostgreSQL client sends, read from its side of the wire protocol: an
 * Execute message (a query with parameters) or a Query message (without) is one round trip and, out
 * of a transaction, one commit. Give `watch` to `silentRelay(port, watch)`.
 *
 * @example const queries = queryCounter(); const relay = await silentRelay(port, queries.watch);
 */
export function queryCounter(): { watch: () => (clientBytes: Buffer) => void; readonly count: number } {
  let count = 0;
  return {
    get count() {
      return count;
    },
    watch: () => {
      // The startup message has no type byte: a length, then its body.
      let started = false;
      let pending = Buffer.alloc(0);
      return (chunk) => {
        pending = Buffer.concat([pending, chunk]);
        for (;;) {
          const header = started ? 5 : 4;
          if (pending.length < header) return;
          const length = pending.readInt32BE(started ? 1 : 0);
          const size = started ? 1 + length : length;
          if (pending.length < size) return;
          const type = started ? String.fromCharCode(pending[0]!) : "";
          if (type === "E" || type === "Q") count++;
          started = true;
          pending = pending.subarray(size);
        }
      };
    },
  };
}
