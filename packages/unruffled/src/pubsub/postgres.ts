import type pg from "pg";
import { Broker } from "./broker.ts";
import { PublishingConnection } from "./publishing-connection.ts";
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
  /**
   * How long a publish may wait for the database's answer, in ms (default 5 s): a server that stops
   * answering on an open connection fails the publish (the connection is dropped, and the next
   * publish opens a new one) instead of holding it for ever. The listening connection is asked for
   * an answer (`select 1`) this often, and one that gives none within as long counts as lost.
   */
  timeout?: number;
}

// PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more: larger messages go through the table.
const NOTIFY_LIMIT = 8_000;
// A topic travels with every notification, large or not: it must leave room for the rest.
const TOPIC_LIMIT = 1_000;
// How the broker's connections show in pg_stat_activity.
const APPLICATION_NAME = "unruffled-pubsub";
// The most notifications sent in one query.
const BATCH_LIMIT = 500;
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
  const timeout = options.timeout ?? 5_000;
  if (!Number.isInteger(timeout) || timeout < 1) {
    throw new TypeError(
      `postgresPubSub(): timeout must be a whole number of milliseconds, at least 1, got ${JSON.stringify(timeout)}`,
    );
  }
  return new PostgresPubSub({ ...options, timeout });
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

interface Batch {
  client: pg.Client;
  payloads: string[];
  settles: { resolve: () => void; reject: (error: unknown) => void }[];
}

class PostgresPubSub extends Broker {
  private readonly url: string;
  private readonly channel: string;
  private readonly table: string;
  private readonly keepFor: number;
  private readonly timeout: number;
  private readonly log: PubSubLog;
  private readonly listening: Reconnection<pg.Client>;
  private readonly publisher: PublishingConnection<pg.Client>;
  // The publishes in flight, one after another, and the batch of notifications still gathering.
  private sending: Promise<unknown> = Promise.resolve();
  private batch: Batch | undefined;
  private sequence = 0;
  private tableMade = false;
  private lastCleanUp = 0;
  // Notifications are handed on in the order they came, also while a large one is being fetched.
  private delivery: Promise<void> = Promise.resolve();
  private fetching = 0;

  constructor(options: PostgresPubSubOptions) {
    super("PostgreSQL", options.log ?? consoleLog);
    this.url = options.connectionString;
    this.channel = options.channel ?? "unruffled_pubsub";
    this.table = options.table ?? "unruffled_pubsub_payloads";
    this.keepFor = options.keepLargeMessagesFor ?? 60_000;
    this.timeout = options.timeout ?? 5_000;
    this.log = options.log ?? consoleLog;
    this.listening = new Reconnection({
      name: this.name,
      log: this.log,
      gaps: this.gaps,
      wanted: () => this.topics.count() > 0,
      open: (lost) => this.openListener(lost),
      close: (client) => client.end(),
      check: (client) => client.query("select 1"),
      checkEvery: this.timeout,
    });
    this.publisher = new PublishingConnection({
      open: (dropped) => this.openPublisher(dropped),
      close: (client) => client.end(),
    });
  }

  async publish(topic: string, message: string): Promise<void> {
    checkPublish(topic, message);
    checkText(topic, message);
    if (this.closed) throw closedError(this.name);
    const client = await this.publisher.ready();
    if (this.closed) throw closedError(this.name);
    // The counter keeps two equal messages apart: PostgreSQL drops a notification equal to another
    // of the same transaction, and a batch is one transaction.
    this.sequence = (this.sequence + 1) % 1_000_000;
    const small = `${this.sequence.toString(36)}/${topic.length}:${topic}${message}`;
    if (Buffer.byteLength(small) < NOTIFY_LIMIT) return this.notify(client, small);
    this.batch = undefined;
    // One query at a time on the connection, in the order of the calls: each publisher's order holds.
    const sent = this.sending.then(() =>
      this.publishLarge(client, topic, message).catch((error: unknown) => {
        this.publisher.drop(client);
        throw error;
      }),
    );
    this.sending = sent.catch(() => undefined);
    await sent;
  }

  /**
   * Sends a notification with those published before it while the query ahead runs: one query, and
   * one round trip and commit, for the whole batch, its notifications in the order of the calls.
   */
  private notify(client: pg.Client, payload: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiting = this.batch;
      if (waiting !== undefined && waiting.client === client && waiting.payloads.length < BATCH_LIMIT) {
        waiting.payloads.push(payload);
        waiting.settles.push({ resolve, reject });
        return;
      }
      const batch: Batch = { client, payloads: [payload], settles: [{ resolve, reject }] };
      this.batch = batch;
      const sent = this.sending.then(async () => {
        if (this.batch === batch) this.batch = undefined;
        try {
          await client.query("select pg_notify($1, payload) from unnest($2::text[]) as batch(payload)", [
            this.channel,
            batch.payloads,
          ]);
          for (const settle of batch.settles) settle.resolve();
        } catch (error) {
          // A query the database did not answer within `timeout` (pg's `query_timeout`) leaves its
          // connection unusable: pg ends a connection with a query still out by destroying its socket.
          this.publisher.drop(client);
          for (const settle of batch.settles) settle.reject(error);
        }
      });
      this.sending = sent;
    });
  }

  private async publishLarge(client: pg.Client, topic: string, message: string): Promise<void> {
    if (!this.tableMade) {
      await client
        .query(
          `create table if not exists ${this.table} (id bigserial primary key, topic text not null, message text not null, created_at timestamptz not null default now())`,
        )
        .catch(() => {
          // Another process made it at the same moment; were it missing, the insert below would tell.
        });
      this.tableMade = true;
    }
    await client.query(
      `with stored as (insert into ${this.table} (topic, message) values ($1, $2) returning id) select pg_notify($3, '#' || id || ':' || $1) from stored`,
      [topic, message, this.channel],
    );
    if (Date.now() - this.lastCleanUp > this.keepFor / 2) {
      this.lastCleanUp = Date.now();
      await client
        .query(`delete from ${this.table} where created_at < now() - $1 * interval '1 millisecond'`, [
          this.keepFor,
        ])
        .catch((error: unknown) =>
          this.log.error({ err: error }, "PubSub: could not delete old large messages"),
        );
    }
  }

  override async subscribe(topic: string, listener: (message: string) => void): Promise<Unsubscribe> {
    checkTopic(topic);
    checkText(topic, "");
    return super.subscribe(topic, listener);
  }

  // Once LISTEN has run, every later notification reaches this connection.
  protected override async subscribed(): Promise<void> {
    await this.listening.ready();
  }

  protected override async release(): Promise<void> {
    await Promise.all([this.listening.close(), this.publisher.close(), this.delivery]);
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
    // "<counter>/<topic length>:<topic><message>"
    const slash = payload.indexOf("/");
    const colon = payload.indexOf(":", slash);
    const length = Number(payload.slice(slash + 1, colon));
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

  private async openPublisher(dropped: () => void): Promise<pg.Client> {
    const { Client } = await loadPg();
    const client = new Client({
      connectionString: this.url,
      connectionTimeoutMillis: 5_000,
      application_name: APPLICATION_NAME,
      query_timeout: this.timeout,
    });
    const drop = () => {
      client.removeAllListeners("end");
      dropped();
    };
    // Unheard, an 'error' of an idle connection would end the process: the next publish reconnects.
    client.on("error", drop);
    client.on("end", drop);
    await client.connect();
    return client;
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
