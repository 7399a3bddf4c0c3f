import type { CallOptions, ClientOptions } from "./client-options.ts";
import { decodeResponse, networkFailure } from "./decode-response.ts";
import { encodeCall } from "./encode-request.ts";
import type { OperationPlan } from "./operation-plan.ts";
import { rateLimitStates, retryAfterSeconds } from "./rate-limited.ts";
import { connectSocket, type SocketOptions, type SocketPlan } from "./websocket.ts";

/**
 * The client of a generated module: one method per operation plan, each taking the parameters by
 * name and resolving (never rejecting) to the answer's branch.
 *
 * @example
 * const client = bindOperations<EnrollmentClient>(OPERATIONS, { baseUrl: "http://127.0.0.1:8000" });
 */
export function bindOperations<Client>(
  plans: Readonly<Record<string, OperationPlan>>,
  options: ClientOptions,
  sockets: Readonly<Record<string, SocketPlan>> = {},
): Client {
  const client: Record<string, unknown> = {};
  for (const [name, plan] of Object.entries(plans)) {
    client[name] = (params?: Readonly<Record<string, unknown>>, callOptions?: CallOptions) =>
      callOperation(plan, params ?? {}, options, callOptions ?? {});
  }
  // A WebSocket route's member connects, on the platform's WebSocket.
  for (const [name, plan] of Object.entries(sockets)) {
    client[name] = (params?: Readonly<Record<string, unknown>>, socketOptions?: SocketOptions) =>
      connectSocket(plan, params ?? {}, options, socketOptions ?? {});
  }
  return client as Client;
}

/** The longest delay setTimeout keeps: 2^31 - 1 ms. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** Sends one call and reads its answer; every failure is a result, never a rejection. */
export async function callOperation(
  plan: OperationPlan,
  params: Readonly<Record<string, unknown>>,
  options: ClientOptions,
  callOptions: CallOptions,
): Promise<unknown> {
  const retry = options.retryRateLimited;
  let result = await callOnce(plan, params, options, callOptions);
  if (retry === undefined) return result;
  const signal = callOptions.signal;
  for (let attempt = 0; attempt < (retry.attempts ?? 2); attempt++) {
    const answer = result as { kind: string; status?: number; retryAfter?: number };
    if (answer.kind !== "documented" || answer.status !== 429) return result;
    const wait = answer.retryAfter;
    // Past the longest timer (about 24.8 days) setTimeout fires at once: that wait is given back too.
    if (wait === undefined || wait > (retry.maxWait ?? 60) || wait * 1000 > LONGEST_TIMER_MS) return result;
    // An aborted call is aborted, as fetch's is: the 429 was not its last word, the retry was.
    if (!(await sleep(wait * 1000, signal))) return networkFailure(signal?.reason, signal);
    result = await callOnce(plan, params, options, callOptions);
  }
  return result;
}

/** One request and its answer, a 429's `retryAfter` and policies read. */
async function callOnce(
  plan: OperationPlan,
  params: Readonly<Record<string, unknown>>,
  options: ClientOptions,
  callOptions: CallOptions,
): Promise<unknown> {
  const signal = callOptions.signal;
  let response: Response;
  try {
    const encoded = encodeCall(plan, params);
    const defaults = typeof options.headers === "function" ? options.headers() : options.headers;
    const headers = { ...lowerCased(defaults), ...encoded.headers, ...lowerCased(callOptions.headers) };
    const init: RequestInit = { method: plan.method, headers };
    if (encoded.body !== undefined) init.body = encoded.body;
    if (signal !== undefined) init.signal = signal;
    if (options.credentials !== undefined) init.credentials = options.credentials;
    const send = options.fetch ?? globalThis.fetch;
    response = await send(joinUrl(options.baseUrl, encoded.target), init);
  } catch (error) {
    return networkFailure(error, signal);
  }
  const result = await decodeResponse(plan, response, signal);
  if (result.kind === "documented" && result.status === 429) {
    return {
      ...result,
      retryAfter: retryAfterSeconds(response.headers.get("retry-after")),
      policies: rateLimitStates(response.headers),
    };
  }
  return result;
}

/** Resolves true after `ms`, or false at once when the signal aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve(true);
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener("abort", abort, { once: true });
  });
}

function joinUrl(baseUrl: string, target: string): string {
  return baseUrl.endsWith("/") ? baseUrl.slice(0, -1) + target : baseUrl + target;
}

function lowerCased(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) result[name.toLowerCase()] = value;
  return result;
}
