/** The limits Node's server enforces on a connection: the head's size and the three timeouts (ms). */
export interface ConnectionLimits {
  readonly header_size: number;
  readonly headers_timeout: number;
  readonly request_timeout: number;
  readonly keep_alive_timeout: number;
}

/**
 * How often Node's server looks for connections past `headers_timeout` or `request_timeout`. Node
 * checks every 30 s by default, which would let a 500 ms limit last half a minute; a tenth of the
 * shorter timeout, at most a second, keeps every limit within about 10 % of its value.
 *
 * @example timeoutCheckInterval({ header_size: 16_384, headers_timeout: 500, request_timeout: 500, keep_alive_timeout: 5_000 }) // 50
 */
export function timeoutCheckInterval(limits: ConnectionLimits): number {
  const shortest = Math.min(limits.headers_timeout, limits.request_timeout);
  return Math.min(1_000, Math.max(10, Math.floor(shortest / 10)));
}
