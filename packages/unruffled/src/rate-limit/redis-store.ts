import type { Check } from "./gcra.ts";
import type { Decisions, RateLimitStore } from "./store.ts";

// gcra.ts's decideAll, in Lua, on the server's clock: one EVALSHA per request, atomic over its keys.
// ARGV holds interval, capacity and cost of each key in turn. Returns, per key: admitted (1/0),
// remaining, reset, retry-after (µs). A time in µs has 16 digits, more than Lua's tostring()
// keeps (14): the stored time is written with %d.
export const GCRA_LUA = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local n = #KEYS
local starts, nexts, admitted = {}, {}, true
local out = {}
for i = 1, n do
  local interval = tonumber(ARGV[i * 3 - 2])
  local capacity = tonumber(ARGV[i * 3 - 1])
  local cost = tonumber(ARGV[i * 3])
  local tat = tonumber(redis.call('GET', KEYS[i]) or '0')
  local start = tat
  if start < now then start = now end
  local next = start + cost * interval
  starts[i], nexts[i] = start, next
  if next - now > capacity then
    admitted = false
    out[i * 4 - 3] = 0
    out[i * 4 - 2] = math.floor((capacity - (start - now)) / interval)
    out[i * 4 - 1] = start - now
    out[i * 4] = next - capacity - now
  else
    out[i * 4 - 3] = 1
    out[i * 4 - 2] = math.floor((capacity - (next - now)) / interval)
    out[i * 4 - 1] = next - now
    out[i * 4] = 0
  end
end
for i = 1, n do
  if admitted then
    redis.call('SET', KEYS[i], string.format('%d', nexts[i]), 'PX', math.ceil((nexts[i] - now) / 1000))
  elseif out[i * 4 - 3] == 1 then
    local interval = tonumber(ARGV[i * 3 - 2])
    local capacity = tonumber(ARGV[i * 3 - 1])
    out[i * 4 - 2] = math.floor((capacity - (starts[i] - now)) / interval)
    out[i * 4 - 1] = starts[i] - now
  end
end
return out
`;

/** What `redisStore()` needs of a client of the `redis` package (6.x): run a script by its hash. */
interface RedisClientLike {
  evalSha(sha: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** The store's own client, which it connects and ends. */
interface OwnedClient extends RedisClientLike {
  connect(): Promise<unknown>;
  destroy(): void;
  on(event: "error", listener: () => void): unknown;
}

export interface RedisStoreOptions {
  /** `redis://127.0.0.1:6379`: the store makes its own client (the `redis` package, loaded then). */
  url?: string;
  /** A client of the `redis` package the app made and connected (the store never closes it). */
  client?: RedisClientLike;
  /** Put before every key (default `"ratelimit:"`). */
  prefix?: string;
}

/**
 * State in Redis: exact across every instance that shares it, one round trip per request (a Lua
 * script by its SHA), on the Redis server's clock. `redis` (6.x) is an optional peer dependency,
 * loaded on first use. Commands fail at once while the connection is down (no offline queue), so
 * `RATE_LIMITS.on_store_failure` decides.
 *
 * @example createApp({ routes, rateLimitStore: redisStore({ url: process.env.REDIS_URL }) })
 */
export function redisStore(options: RedisStoreOptions): RateLimitStore {
  if (options.url === undefined && options.client === undefined) {
    throw new TypeError("redisStore() needs a url or a client");
  }
  return new RedisStore(options);
}

class RedisStore implements RateLimitStore {
  readonly kind = "rate-limit-store";
  private readonly options: RedisStoreOptions;
  private readonly prefix: string;
  private readonly sha = process
    .getBuiltinModule("node:crypto")
    .createHash("sha1")
    .update(GCRA_LUA)
    .digest("hex");
  private client: Promise<RedisClientLike> | undefined;
  /** The client the store made (from its first connection attempt on), which `close()` ends. */
  private owned: OwnedClient | undefined;
  /** How many times the store was closed: a connection begun before a close makes no client after it. */
  private closes = 0;

  constructor(options: RedisStoreOptions) {
    this.options = options;
    this.prefix = options.prefix ?? "ratelimit:";
  }

  async consume(checks: readonly Check[]): Promise<Decisions> {
    const client = await this.connected();
    const keys: string[] = [];
    const args: string[] = [];
    for (const check of checks) {
      keys.push(this.prefix + check.key);
      args.push(String(check.interval), String(check.capacity), String(check.cost));
    }
    let reply: unknown;
    try {
      reply = await client.evalSha(this.sha, { keys, arguments: args });
    } catch (error) {
      // The first call after a restart of Redis: the script is not cached there yet.
      if (!String((error as Error)?.message).startsWith("NOSCRIPT")) throw error;
      reply = await client.eval(GCRA_LUA, { keys, arguments: args });
    }
    const numbers = reply as number[];
    const decisions: Decisions = [];
    for (let index = 0; index < checks.length; index++) {
      decisions.push({
        admitted: numbers[index * 4] === 1,
        remaining: Number(numbers[index * 4 + 1]),
        reset: Number(numbers[index * 4 + 2]),
        retryAfter: Number(numbers[index * 4 + 3]),
      });
    }
    return decisions;
  }

  private connected(): Promise<RedisClientLike> {
    if (this.options.client !== undefined) return Promise.resolve(this.options.client);
    this.client ??= this.connect();
    return this.client;
  }

  private async connect(): Promise<RedisClientLike> {
    const closes = this.closes;
    const { createClient } = await import("redis");
    // Closed while the package loaded: no client for a store that was told to let go.
    if (closes !== this.closes) throw new Error("The rate-limit store was closed while it connected");
    const client = createClient({
      url: this.options.url,
      // A request must not wait for a Redis that is down: its command fails, and the policy decides.
      disableOfflineQueue: true,
      socket: { reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2_000) },
    }) as unknown as OwnedClient;
    // Errors of the connection are the commands' failures; an unhandled "error" event would crash.
    client.on("error", () => {});
    this.owned = client;
    try {
      await client.connect();
    } catch (error) {
      this.client = undefined;
      if (this.owned === client) this.owned = undefined;
      client.destroy();
      throw error;
    }
    return client;
  }

  /**
   * Ends the store's own client at once, connected or not. `app.close()` calls it once every request
   * was answered, so no command of the store is left to wait for; a graceful close would wait for the
   * replies of a connection being made again, which a Redis that is gone never sends.
   */
  async close(): Promise<void> {
    this.closes++;
    const owned = this.owned;
    this.owned = undefined;
    this.client = undefined;
    owned?.destroy();
  }
}
