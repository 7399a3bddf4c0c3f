/** Headers as a record; a function is called for each request (a token that changes). */
export type HeadersInput = Readonly<Record<string, string>> | (() => Readonly<Record<string, string>>);

/** How a client reaches the service. */
export interface ClientOptions {
  /** Where the app is served: `https://api.example.org`, or `""` for the page's own origin. */
  baseUrl: string;
  /** The `fetch` to call (default: the global one): a test's, or one with retries. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Sent with every request; a call's own headers win. */
  headers?: HeadersInput;
  /** Whether a browser sends its cookies (`"include"` for another origin); fetch's default otherwise. */
  credentials?: RequestInit["credentials"];
  /**
   * Calls answered 429 are sent again after their `Retry-After`, up to `attempts` more times
   * (default 2), unless it asks for more than `maxWait` seconds (default 60) or than a timer can
   * wait (about 24.8 days): then the 429 is the result. A call whose signal aborts while it waits
   * resolves at once to `network-failure` with `aborted: true`, as any aborted call. Off by default.
   */
  retryRateLimited?: { attempts?: number; maxWait?: number };
}

/** What one call may add: its own headers, and a signal that aborts it (and ends its events). */
export interface CallOptions {
  headers?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
}
