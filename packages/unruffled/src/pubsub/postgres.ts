import type pg from "pg";
import { GapListeners } from "./gap-listeners.ts";
import {
  checkPublish,
  checkTopic,
  closedError,
  consoleLog,
  type PubSub,
  type PubSubLog,
  type Unsubscribe,
} from "./pubsub.ts";
import { Reconnection } from "./reconnection.ts";
import { LocalTopics } from "./topics.ts";

export interface PostgresPubSubOptions {
  /** The database every process connects to: `postgres://user@host:5432/app`. */
  connectionString: string;
  /** The `NOTIFY` channel all of the app's processes share (default `unruffled_pubsub`). */
  channel?: string;
  /** Where messages too large for `NOTIFY` wait to be read (default `unruffled_pubsub_payloads`; made on first use). */
  table?: string;
  /** How long such a message is kept for its readers, in milliseconds (default 60 s). */
  keepLargeMessagesFor?: number;
  /** Where the gap (one `warn` per outage) and a listener that threw are reported (default the console). */
  log?: PubSubLog;
}

// PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more: larger messages go through the table.
const NOTIFY_LIMIT = 8_000;
// A topic travels with every notification, large or not: it must leave room for the rest.
const TOPIC_LIMIT = 1_000;
// How the broker's connections show in pg_stat_activity.
const APPLICATION_NAME = "unruffled-pubsub";
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * A broker through PostgreSQL's `LISTEN/NOTIFY`, for the processes of every machine on one
 * database: each process holds one connection that listens and one that publishes. A message of
 * 8,000 bytes or more is stored in a table and its id notified; readers fetch it, and rows older
 * than `keepLargeMessagesFor` are deleted as new ones come. After a lost connection it reconnects
 * (100 ms, doubling to 2 s, while anyone subscribes), logs the gap once, and tells `onGap`.
 * Needs the `pg` package (an optional peer: `npm i pg`), loaded on first use.
 *
 * @example
 * const pubsub = postgresPubSub({ connectionString: process.env.DATABASE_URL! });
 * const app = createApp({ routes, pubsub });
 */
export function postgresPubSub(options: PostgresPubSubOptions): PubSub {
  if (typeof options?.connectionString !== "string" || options.connectionString === "") {
    throw new TypeError("postgresPubSub() needs a connectionString: postgres://user@host:5432/database");
  }
  for (const key of ["channel", "table"] as const) {
    const name = options[key];
    if (name !== undefined && !IDENTIFIER.test(name)) {
      throw new TypeError(
        `postgresPubSub({ ${key} }) must be a lower-case SQL identifier, got ${JSON.stringify(name)}`,
      );
    }
  }
  return new PostgresPubSub(options);
}

let loadedPg: Promise<typeof pg> | undefined;
// Loaded on first use: an app without this broker neither installs nor loads pg.
function loadPg(): Promise<typeof pg> {
  loadedPg ??= import("pg").then(
    (module) => (module.default ?? module) as typeof pg,
    (error: unknown) => {
      loadedPg = undefined;
      throw new Error("postgresPubSub() needs the pg package: npm i pg", { cause: error });
    },
  );
  return loadedPg;
}

class PostgresPubSub implements PubSub {
  private readonly url: string;
  private readonly channel: string;
  private readonly table: string;
  private readonly keepFor: number;
  private readonly log: PubSubLog;
  private readonly topics: LocalTopics;
  private readonly gaps = new GapListeners();
  private readonly listening: Reconnection<pg.Client>;
  private publisher: Promise<pg.Client> | undefined;
  private tableMade = false;
  private lastCleanUp = 0;
  // Notifications are handed on in the order they came, also while a large one is being fetched.
  private delivery: Promise<void> = Promise.resolve();
  private fetching = 0;
  private closed = false;

  constructor(options: PostgresPubSubOptions) {
    this.url = options.connectionString;
    this.channel = options.channel ?? "unruffled_pubsub";
    this.table = options.table ?? "unruffled_pubsub_payloads";
    this.keepFor = options.keepLargeMessagesFor ?? 60_000;
    this.log = options.log ?? consoleLog;
    this.topics = new LocalTopics(this.log);
    this.listening = new Reconnection({
      name: "PostgreSQL",
      log: this.log,
      gaps: this.gaps,
      wanted: () => this.topics.count() > 0,
      open: (lost) => this.openListener(lost),
      close: (client) => client.end(),
    });
  }

  async publish(topic: string, message: string): Promise<void> {
    checkPublish(topic, message);
    checkText(topic, message);
    if (this.closed) throw closedError("PostgreSQL");
    const client = await this.publishingClient();
    if (this.closed) throw closedError("PostgreSQL");
    const small = `${topic.length}:${topic}${message}`;
    // Queries on one connection run in the order they are issued: each publisher's order holds.
    if (Buffer.byteLength(small) < NOTIFY_LIMIT) {
      await client.query("select pg_notify($1, $2)", [this.channel, small]);
      return;
    }
    if (!this.tableMade) {
      this.tableMade = true;
      client
        .query(
          `create table if not exists ${this.table} (id bigserial primary key, topic text not null, message text not null, created_at timestamptz not null default now())`,
        )
        .catch(() => {
          // Another process made it at the same moment; were it missing, the insert below would tell.
        });
    }
    const stored = client.query(
      `with stored as (insert into ${this.table} (topic, message) values ($1, $2) returning id) select pg_notify($3, '#' || id || ':' || $1) from stored`,
      [topic, message, this.channel],
    );
    if (Date.now() - this.lastCleanUp > this.keepFor / 2) {
      this.lastCleanUp = Date.now();
      client
        .query(`delete from ${this.table} where created_at < now() - $1 * interval '1 millisecond'`, [
          this.keepFor,
        ])
        .catch((error: unknown) =>
          this.log.error({ err: error }, "PubSub: could not delete old large messages"),
        );
    }
    await stored;
  }

  async subscribe(topic: string, listener: (message: string) => void): Promise<Unsubscribe> {
    checkTopic(topic);
    checkText(topic, "");
    if (this.closed) throw closedError("PostgreSQL");
    const { unsubscribe } = this.topics.add(topic, listener, async () => {});
    try {
      // Once LISTEN has run, every later notification reaches this connection.
      await this.listening.ready();
    } catch (error) {
      await unsubscribe();
      throw error;
    }
    if (this.closed) throw closedError("PostgreSQL");
    return unsubscribe;
  }

  onGap(listener: (error?: Error) => void): () => void {
    return this.gaps.add(listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.topics.clear();
    this.gaps.clear();
    const publisher = this.publisher;
    this.publisher = undefined;
    await Promise.all([
      this.listening.close(),
      publisher?.then((client) => client.end()).catch(() => undefined),
      this.delivery,
    ]);
  }

  private async openListener(lost: (error: Error) => void): Promise<pg.Client> {
    const { Client } = await loadPg();
    const client = new Client({
      connectionString: this.url,
      connectionTimeoutMillis: 5_000,
      application_name: APPLICATION_NAME,
    });
    client.on("error", (error) => lost(error));
    client.on("end", () => lost(new Error("The PostgreSQL connection ended")));
    client.on("notification", (notification) => {
      if (notification.channel === this.channel && notification.payload !== undefined) {
        this.receive(client, notification.payload);
      }
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (error) {
      client.removeAllListeners("end");
      await client.end().catch(() => undefined);
      throw error;
    }
    return client;
  }

  private receive(client: pg.Client, payload: string): void {
    if (payload.startsWith("#")) {
      const colon = payload.indexOf(":");
      const topic = payload.slice(colon + 1);
      // Fetched only where someone listens to its topic.
      if (!this.topics.has(topic)) return;
      this.fetching++;
      this.delivery = this.delivery
        .then(() => this.fetchLarge(client, payload.slice(1, colon)))
        .then((message) => {
          if (message !== undefined) this.topics.deliver(topic, message);
        })
        .catch((error: unknown) => {
          if (!this.closed) this.log.error({ err: error, topic }, "PubSub: could not read a large message");
        })
        .finally(() => {
          this.fetching--;
        });
      return;
    }
    const colon = payload.indexOf(":");
    const length = Number(payload.slice(0, colon));
    const topic = payload.slice(colon + 1, colon + 1 + length);
    const message = payload.slice(colon + 1 + length);
    if (this.fetching === 0) this.topics.deliver(topic, message);
    else this.delivery = this.delivery.then(() => this.topics.deliver(topic, message));
  }

  private async fetchLarge(client: pg.Client, id: string): Promise<string | undefined> {
    const result = await client.query<{ message: string }>(
      `select message from ${this.table} where id = $1`,
      [id],
    );
    const row = result.rows[0];
    if (row === undefined) this.log.error({ id }, "PubSub: a large message was deleted before it was read");
    return row?.message;
  }

  private publishingClient(): Promise<pg.Client> {
    this.publisher ??= (async () => {
      const { Client } = await loadPg();
      const client = new Client({
        connectionString: this.url,
        connectionTimeoutMillis: 5_000,
        application_name: APPLICATION_NAME,
      });
      const drop = () => {
        client.removeAllListeners("end");
        if (this.publisher === opened) this.publisher = undefined;
      };
      // Unheard, an 'error' of an idle connection would end the process: the next publish reconnects.
      client.on("error", drop);
      client.on("end", drop);
      await client.connect();
      return client;
    })();
    const opened = this.publisher;
    opened.catch(() => {
      if (this.publisher === opened) this.publisher = undefined;
    });
    return opened;
  }
}

// PostgreSQL text holds no NUL character, and the topic travels with every notification.
function checkText(topic: string, message: string): void {
  if (topic.includes("\u0000") || message.includes("\u0000")) {
    throw new TypeError("postgresPubSub() cannot carry the character U+0000 (PostgreSQL text refuses it)");
  }
  if (Buffer.byteLength(topic) > TOPIC_LIMIT) {
    throw new TypeError(`postgresPubSub() takes topics of at most ${TOPIC_LIMIT} bytes`);
  }
}
