import type * as redis from "redis";
import { settleWithin } from "../settle-within.ts";
import { Broker } from "./broker.ts";
import { PublishingConnection } from "./publishing-connection.ts";
import { checkPublish, closedError, consoleLog, type PubSub, type PubSubLog } from "./pubsub.ts";
import { Reconnection } from "./reconnection.ts";

export interface RedisPubSubOptions {
  /** The Redis server every process connects to: `redis://127.0.0.1:6379`. */
  url: string;
  /** Where the gap (one `warn` per outage) and a listener that threw are reported (default the console). */
  log?: PubSubLog;
  /**
   * How long Redis may take to answer a connection's handshake or a publish, in ms (default 5 s):
   * a server that takes the connection and then says nothing fails the publish (its connection is
   * dropped, and the next publish opens a new one) instead of holding it for ever. The subscribing
   * connection is asked for an answer (PING) this often, and one that gives none within as long
   * counts as lost.
   */
  timeout?: number;
}

// What the broker uses of a node-redis client: its full generic type is heavier than it helps here.
interface RedisClient {
  connect(): Promise<unknown>;
  ping(): Promise<unknown>;
  publish(channel: string, message: string): Promise<unknown>;
  subscribe(channel: string, listener: (message: string, channel: string) => void): Promise<void>;
  unsubscribe(channel: string, listener: (message: string, channel: string) => void): Promise<void>;
  destroy(): void;
  on(event: "error" | "terminated", listener: (error: Error) => void): unknown;
}

/**
 * A broker through Redis `PUBLISH`/`SUBSCRIBE`, for the processes of every machine on one Redis
 * server: each process holds one connection that subscribes (to the topics its listeners follow)
 * and one that publishes. Any size of message travels as it is. After a lost connection it
 * reconnects (100 ms, doubling to 2 s, while anyone subscribes), subscribes again, logs the gap
 * once and tells `onGap`; a publish while Redis is away rejects. Needs the `redis` package (an
 * optional peer: `npm i redis`), loaded on first use.
 *
 * @example
 * const pubsub = redisPubSub({ url: process.env.REDIS_URL! });
 * const app = createApp({ routes, pubsub });
 */
export function redisPubSub(options: RedisPubSubOptions): PubSub {
  if (typeof options?.url !== "string" || options.url === "") {
    throw new TypeError("redisPubSub() needs a url: redis://host:6379");
  }
  const timeout = options.timeout ?? 5_000;
  if (!Number.isInteger(timeout) || timeout < 1) {
    throw new TypeError(
      `redisPubSub(): timeout must be a whole number of milliseconds, at least 1, got ${JSON.stringify(timeout)}`,
    );
  }
  return new RedisPubSub({ ...options, timeout });
}

let loadedRedis: Promise<typeof redis> | undefined;
// Loaded on first use: an app without this broker neither installs nor loads redis.
function loadRedis(): Promise<typeof redis> {
  loadedRedis ??= import("redis").catch((error: unknown) => {
    loadedRedis = undefined;
    throw new Error("redisPubSub() needs the redis package: npm i redis", { cause: error });
  });
  return loadedRedis;
}

class RedisPubSub extends Broker {
  private readonly url: string;
  private readonly timeout: number;
  private readonly listening: Reconnection<RedisClient>;
  // The topics SUBSCRIBEd on the current connection, each with its command's reply.
  private subscribedTopics = new Map<string, Promise<void>>();
  private readonly publisher: PublishingConnection<RedisClient>;

  constructor(options: RedisPubSubOptions) {
    super("Redis", options.log ?? consoleLog);
    this.url = options.url;
    this.timeout = options.timeout ?? 5_000;
    this.listening = new Reconnection({
      name: this.name,
      log: options.log ?? consoleLog,
      gaps: this.gaps,
      wanted: () => this.topics.count() > 0,
      open: (lost) => this.openSubscriber(lost),
      close: async (client) => client.destroy(),
      check: (client) => client.ping(),
      checkEvery: this.timeout,
    });
    this.publisher = new PublishingConnection({
      open: (dropped) => this.openPublisher(dropped),
      close: (client) => client.destroy(),
    });
  }

  // One listener for every topic: node-redis passes the channel along.
  private readonly receive = (message: string, channel: string): void => {
    this.topics.deliver(channel, message);
  };

  async publish(topic: string, message: string): Promise<void> {
    checkPublish(topic, message);
    if (this.closed) throw closedError(this.name);
    const client = await this.publisher.ready();
    if (this.closed) throw closedError(this.name);
    // Commands on one connection are answered in order: each publisher's order holds. A Redis that
    // stops answering fails the publish, and its connection is dropped for the next one to open anew.
    await settleWithin(client.publish(topic, message), this.timeout, () => {
      this.publisher.drop(client);
      return new Error(`Redis did not answer the publish to "${topic}" within ${this.timeout} ms`);
    });
  }

  protected override async subscribed(topic: string): Promise<void> {
    const client = await this.listening.ready();
    await this.subscribeTopic(client, topic);
  }

  protected override async lastUnsubscribed(topic: string): Promise<void> {
    const client = this.listening.connection;
    if (!this.subscribedTopics.delete(topic) || client === undefined) return;
    await client.unsubscribe(topic, this.receive).catch(() => undefined);
  }

  protected override async release(): Promise<void> {
    await Promise.all([this.listening.close(), this.publisher.close()]);
  }

  private subscribeTopic(client: RedisClient, topic: string): Promise<void> {
    let reply = this.subscribedTopics.get(topic);
    if (reply === undefined) {
      reply = client.subscribe(topic, this.receive);
      this.subscribedTopics.set(topic, reply);
      reply.catch(() => this.subscribedTopics.delete(topic));
    }
    return reply;
  }

  private async openSubscriber(lost: (error: Error) => void): Promise<RedisClient> {
    const { createClient } = await loadRedis();
    // Reconnection is ours (Reconnection): it subscribes again and tells the gap once.
    const client = createClient({
      url: this.url,
      socket: { reconnectStrategy: false, connectTimeout: 5_000 },
    });
    client.on("error", (error: Error) => lost(error));
    client.on("terminated", (error: Error) => lost(error));
    await connectWithin(client, this.timeout);
    this.subscribedTopics = new Map();
    await Promise.all([...this.topics.names()].map((topic) => this.subscribeTopic(client, topic)));
    return client;
  }

  private async openPublisher(dropped: () => void): Promise<RedisClient> {
    const { createClient } = await loadRedis();
    // A publish while Redis is away rejects at once instead of waiting in a queue.
    const client = createClient({
      url: this.url,
      disableOfflineQueue: true,
      socket: { reconnectStrategy: false, connectTimeout: 5_000 },
    }) as unknown as RedisClient;
    // Unheard, an 'error' would end the process: the next publish opens a new connection.
    client.on("error", () => {
      dropped();
      client.destroy();
    });
    await connectWithin(client, this.timeout);
    return client;
  }
}

/**
 * Connects `client`, or destroys it and fails when Redis does not answer within `ms`: the client's
 * `connectTimeout` bounds only the TCP connection, and a server that takes it and then says nothing
 * held the handshake for ever.
 */
async function connectWithin(client: RedisClient, ms: number): Promise<void> {
  await settleWithin(client.connect(), ms, () => {
    client.destroy();
    return new Error(`Redis did not answer within ${ms} ms of connecting`);
  });
}
