import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  startPrivatePostgres,
  startTestPostgres,
  type TestPostgres,
} from "../../../../apps/enrollment/test/support/postgres.ts";
import { type PubSub, postgresPubSub } from "../../src/pubsub/index.ts";
import { silentRelay } from "../support/silent-relay.ts";
import {
  activeResources,
  brokerRules,
  expectReconnectionSchedule,
  freshTopic,
  nothingLeftBehind,
  publishOnceConnected,
  waitFor,
} from "./support/broker-rules.ts";
import { queryCounter } from "./support/postgres-queries.ts";
import { recordingLog } from "./support/recording-log.ts";

vi.setConfig({ testTimeout: 60_000 });

let server: TestPostgres;
let url: string;
const opened: PubSub[] = [];
function open(options: Partial<Parameters<typeof postgresPubSub>[0]> = {}): PubSub {
  const pubsub = postgresPubSub({ connectionString: url, log: recordingLog(), ...options });
  opened.push(pubsub);
  return pubsub;
}
beforeAll(async () => {
  server = await startTestPostgres();
  url = await server.createDatabase();
});
afterAll(async () => {
  await Promise.all(opened.map((pubsub) => pubsub.close()));
  await server.stop();
});

async function query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe("postgresPubSub", () => {
  let publisher: PubSub;
  let subscriber: PubSub;
  beforeAll(() => {
    publisher = open();
    subscriber = open();
  });
  brokerRules(() => ({ publisher, subscriber }));

  it("carries a 100 KB message through the table, in order with the small ones around it", async () => {
    const topic = freshTopic("large");
    const received: string[] = [];
    await subscriber.subscribe(topic, (message) => received.push(message));
    const large = "é".repeat(50_000); // 100,000 bytes in UTF-8
    const justUnder = "x".repeat(7_000);
    await Promise.all([
      publisher.publish(topic, "before"),
      publisher.publish(topic, large),
      publisher.publish(topic, justUnder),
      publisher.publish(topic, "after"),
    ]);
    await waitFor(() => received.length === 4, "four messages");
    expect(received.map((message) => message.length)).toEqual([6, 50_000, 7_000, 5]);
    expect(received[1]).toBe(large);
    const rows = await query<{ topic: string; bytes: number }>(
      "select topic, octet_length(message) as bytes from unruffled_pubsub_payloads where topic = $1",
      [topic],
    );
    expect(rows).toEqual([{ topic, bytes: 100_000 }]);
  });

  it("deletes stored messages older than keepLargeMessagesFor as new ones are stored", async () => {
    const keeping = open({ keepLargeMessagesFor: 2_000 });
    const topic = freshTopic("cleanup");
    const received: string[] = [];
    await subscriber.subscribe(topic, (message) => received.push(message));
    await keeping.publish(topic, "a".repeat(10_000));
    await waitFor(() => received.length === 1, "the first large message");
    const old = () =>
      query<{ count: string }>(
        "select count(*) from unruffled_pubsub_payloads where topic = $1 and created_at < now() - interval '2 seconds'",
        [topic],
      );
    for (let rows = await old(); rows[0]!.count !== "1"; rows = await old()) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await keeping.publish(topic, "b".repeat(10_000));
    await waitFor(() => received.length === 2, "the second large message");
    expect(received[1]).toBe("b".repeat(10_000));
    const remaining = async () =>
      (
        await query<{ message: string }>(
          "select left(message, 1) as message from unruffled_pubsub_payloads where topic = $1",
          [topic],
        )
      ).map((row) => row.message);
    for (let rows = await remaining(); rows.length !== 1; rows = await remaining()) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await remaining()).toEqual(["b"]);
  });

  it("refuses a message with the character U+0000, which PostgreSQL text cannot hold", async () => {
    await expect(publisher.publish("t", "a\u0000b")).rejects.toThrow(
      "postgresPubSub() cannot carry the character U+0000 (PostgreSQL text refuses it)",
    );
  });

  it("carries a topic of 1,000 bytes, and refuses a longer one", async () => {
    const longest = `${freshTopic("t").slice(0, 10)}${"é".repeat(495)}`;
    expect(Buffer.byteLength(longest)).toBe(1_000);
    const received: string[] = [];
    const unsubscribe = await subscriber.subscribe(longest, (message) => received.push(message));
    await publisher.publish(longest, "fits");
    await waitFor(() => received.length === 1, "the message on the longest topic");
    expect(received).toEqual(["fits"]);
    await unsubscribe();
    const tooLong = `${longest}x`;
    await expect(publisher.publish(tooLong, "x")).rejects.toThrow(
      "postgresPubSub() takes topics of at most 1000 bytes",
    );
    await expect(subscriber.subscribe(tooLong, () => {})).rejects.toThrow(
      "postgresPubSub() takes topics of at most 1000 bytes",
    );
  });

  it("refuses options it cannot use, when made", () => {
    expect(() => postgresPubSub({ connectionString: "" })).toThrow(
      "postgresPubSub() needs a connectionString: postgres://user@host:5432/database",
    );
    expect(() => postgresPubSub({ connectionString: url, channel: "Robert'); drop" })).toThrow(
      `postgresPubSub({ channel }) must be a lower-case SQL identifier, got "Robert'); drop"`,
    );
  });

  it("rejects publish and subscribe after close, and leaves no connection or timer behind", async () => {
    const connections = async () =>
      (
        await query<{ count: string }>(
          "select count(*) from pg_stat_activity where datname = current_database() and application_name = 'unruffled-pubsub'",
        )
      )[0]!.count;
    const connectionsBefore = await connections();
    const before = activeResources();
    const pubsub = postgresPubSub({ connectionString: url, log: recordingLog() });
    const received: string[] = [];
    await pubsub.subscribe("t", (message) => received.push(message));
    pubsub.onGap(() => {});
    await pubsub.publish("t", "x");
    await pubsub.publish("t", "y".repeat(9_000));
    await waitFor(() => received.length === 2, "both messages");
    expect(Number(await connections())).toBe(Number(connectionsBefore) + 2);
    await pubsub.close();
    await expect(pubsub.publish("t", "late")).rejects.toThrow(
      "The PostgreSQL PubSub is closed: publish and subscribe on a new one",
    );
    await expect(pubsub.subscribe("t", () => {})).rejects.toThrow(
      "The PostgreSQL PubSub is closed: publish and subscribe on a new one",
    );
    await nothingLeftBehind(before);
    for (let count = await connections(); count !== connectionsBefore; count = await connections()) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
});

describe("postgresPubSub's batches", () => {
  it("sends the publishes made while a query runs together, up to 500 in one query, each resolving after its own", async () => {
    const queries = queryCounter();
    const relay = await silentRelay(Number(new URL(url).port), queries.watch);
    const relayed = new URL(url);
    relayed.hostname = "127.0.0.1";
    relayed.port = String(relay.port);
    const publisher = open({ connectionString: relayed.toString() });
    const subscriber = open();
    try {
      const topic = freshTopic("batches");
      const received: string[] = [];
      await subscriber.subscribe(topic, (message) => received.push(message));
      await publisher.publish(topic, "first");
      expect(queries.count).toBe(1);
      const sent: string[] = ["first"];
      // For each publish, how many queries the publisher had sent when it resolved.
      for (const count of [1_000, 1_001]) {
        const queriesBefore = queries.count;
        const messages = Array.from({ length: count }, (_, index) => `${count}:${index}`);
        sent.push(...messages);
        const seenAt = await Promise.all(
          messages.map((message) =>
            publisher.publish(topic, message).then(() => queries.count - queriesBefore),
          ),
        );
        const batches = Math.ceil(count / 500);
        expect(seenAt).toEqual(messages.map((_, index) => Math.floor(index / 500) + 1));
        expect(queries.count - queriesBefore).toBe(batches);
      }
      await waitFor(() => received.length === sent.length, "every message");
      expect(received).toEqual(sent);
    } finally {
      await publisher.close();
      await relay.close();
    }
  });
});

describe("postgresPubSub when the database stops answering on an open connection", () => {
  it("refuses a timeout that is not a whole number of ms from 1", () => {
    expect(() => postgresPubSub({ connectionString: "postgres://u@h/d", timeout: 1.5 })).toThrow(
      "postgresPubSub(): timeout must be a whole number of milliseconds, at least 1, got 1.5",
    );
  });

  it("fails the publish after its timeout, then publishes on a new connection", async () => {
    const relay = await silentRelay(Number(new URL(url).port));
    const through = new URL(url);
    through.hostname = "127.0.0.1";
    through.port = String(relay.port);
    const pubsub = open({ connectionString: through.toString(), timeout: 300 });
    await publishOnceConnected(pubsub, "t", "first");
    const connected = relay.connections;
    relay.mute();
    await expect(pubsub.publish("t", "second")).rejects.toThrow("Query read timeout");
    relay.unmute();
    await pubsub.publish("t", "third");
    // The silent connection was given up: the third went on a new one.
    expect(relay.connections).toBe(connected + 1);
    await pubsub.close();
    await relay.close();
  });
});

describe("postgresPubSub when the server restarts", () => {
  let own: Awaited<ReturnType<typeof startPrivatePostgres>>;
  let ownUrl: string;
  beforeAll(async () => {
    own = await startPrivatePostgres();
    ownUrl = await own.createDatabase();
  });
  afterAll(() => own?.stop());

  it("reconnects, logs the gap once, tells onGap once per outage, and delivers again", async () => {
    const log = recordingLog();
    const subscriber = postgresPubSub({ connectionString: ownUrl, log });
    const publisher = postgresPubSub({ connectionString: ownUrl, log: recordingLog() });
    try {
      const received: string[] = [];
      const gaps: (Error | undefined)[] = [];
      subscriber.onGap((error) => gaps.push(error));
      await subscriber.subscribe("news", (message) => received.push(message));
      await publisher.publish("news", "before");
      await waitFor(() => received.length === 1, "the message before the outage");

      for (const outage of [1, 2]) {
        await own.control.kill();
        await waitFor(() => log.records.length === outage, "the gap's record");
        // Several reconnection attempts fail while the server is down; the record stays one.
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await own.control.start();
        await waitFor(() => gaps.length === outage, "onGap", 30_000);
        // The publisher's connection dropped too: its next publish opens a new one.
        const after = `after outage ${outage}`;
        for (let attempt = 0; !received.includes(after); attempt++) {
          await publisher.publish("news", after).catch(() => undefined);
          await new Promise((resolve) => setTimeout(resolve, 100));
          if (attempt > 300) throw new Error("no message after the outage");
        }
      }
      expect(received[0]).toBe("before");
      expect(new Set(received)).toEqual(new Set(["before", "after outage 1", "after outage 2"]));
      expect(gaps).toHaveLength(2);
      expect(gaps[0]).toBeInstanceOf(Error);
      const warning =
        "PubSub: lost the PostgreSQL connection; reconnecting. Messages published until it is back are lost";
      expect(log.records.map((record) => [record.level, record.message])).toEqual([
        ["warn", warning],
        ["warn", warning],
      ]);
    } finally {
      await subscriber.close();
      await publisher.close();
    }
  });
});

describe("postgresPubSub's reconnection, attempt by attempt", () => {
  let own: Awaited<ReturnType<typeof startPrivatePostgres>>;
  let ownUrl: string;
  beforeAll(async () => {
    own = await startPrivatePostgres();
    ownUrl = await own.createDatabase();
  });
  afterAll(() => own?.stop());

  /** The same database, through `relay`. */
  function through(relay: { port: number }): string {
    const relayed = new URL(ownUrl);
    relayed.port = String(relay.port);
    return relayed.toString();
  }

  it("tries again after 100 ms, then twice as long after each failed attempt, up to 2 s, while anyone subscribes", async () => {
    // The relay records each attempt to connect; the real server behind it is stopped.
    const relay = await silentRelay(Number(new URL(ownUrl).port));
    const before = activeResources();
    const log = recordingLog();
    const subscriber = postgresPubSub({ connectionString: through(relay), log });
    const publisher = postgresPubSub({ connectionString: ownUrl, log: recordingLog() });
    try {
      const gaps: (Error | undefined)[] = [];
      subscriber.onGap((error) => gaps.push(error));
      const unsubscribe = await subscriber.subscribe("news", () => {});
      expect(relay.connections).toBe(1);
      await own.control.kill();
      await waitFor(() => relay.connections === 9, "eight attempts to reconnect", 30_000);
      await unsubscribe();
      expectReconnectionSchedule(log.records[0]!.at, relay.acceptedAt.slice(1));
      // Nobody subscribes any more: the attempts stop, and nothing is left running.
      await nothingLeftBehind(before);
      const attemptsMade = relay.connections;
      expect(gaps).toEqual([]);
      expect(log.records.map((record) => record.message)).toEqual([
        "PubSub: lost the PostgreSQL connection; reconnecting. Messages published until it is back are lost",
      ]);
      // Back, the next subscribe connects, and the gap of the outage is told then.
      await own.control.start();
      const received: string[] = [];
      await subscriber.subscribe("news", (message) => received.push(message));
      expect(relay.connections).toBe(attemptsMade + 1);
      expect(gaps).toHaveLength(1);
      for (let attempt = 0; received.length === 0; attempt++) {
        // The publisher's connection dropped with the server: its next publish opens a new one.
        await publisher.publish("news", "back").catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 100));
        if (attempt > 300) throw new Error("no message after the outage");
      }
      expect(received[0]).toBe("back");
    } finally {
      await Promise.all([subscriber.close(), publisher.close()]);
    }
    await relay.close();
    await nothingLeftBehind(before);
  });

  it("goes on reconnecting after a subscribe made during the outage failed", async () => {
    const log = recordingLog();
    const subscriber = postgresPubSub({ connectionString: ownUrl, log });
    const publisher = postgresPubSub({ connectionString: ownUrl, log: recordingLog() });
    try {
      const received: string[] = [];
      const gaps: (Error | undefined)[] = [];
      subscriber.onGap((error) => gaps.push(error));
      await subscriber.subscribe("news", (message) => received.push(`news ${message}`));
      await own.control.kill();
      await waitFor(() => log.records.length === 1, "the gap's record");
      await expect(subscriber.subscribe("sport", () => {})).rejects.toThrow(
        `connect ECONNREFUSED 127.0.0.1:${new URL(ownUrl).port}`,
      );
      await own.control.start();
      await waitFor(() => gaps.length === 1, "onGap", 30_000);
      await subscriber.subscribe("sport", (message) => received.push(`sport ${message}`));
      for (let attempt = 0; received.length === 0; attempt++) {
        await publisher.publish("news", "a").catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 100));
        if (attempt > 300) throw new Error("no message after the outage");
      }
      await publisher.publish("sport", "b");
      await waitFor(() => received.includes("sport b"), "the message on the topic subscribed after");
      expect(received).toEqual(["news a", "sport b"]);
      expect(log.records).toHaveLength(1);
    } finally {
      await Promise.all([subscriber.close(), publisher.close()]);
    }
  });

  // Reconnection follows a lost connection: a first subscribe that fails lost none, so it rejects and
  // leaves nothing running (no timer, no second attempt, no warn, no gap); the next subscribe tries again.
  it("rejects a first subscribe while the server is down, and starts no reconnection: the next subscribe connects", async () => {
    // The relay counts the attempts to connect; the real server behind it is stopped.
    const relay = await silentRelay(Number(new URL(ownUrl).port));
    const before = activeResources();
    const log = recordingLog();
    const subscriber = postgresPubSub({ connectionString: through(relay), log });
    const publisher = postgresPubSub({ connectionString: ownUrl, log: recordingLog() });
    let down = false;
    try {
      const gaps: (Error | undefined)[] = [];
      subscriber.onGap((error) => gaps.push(error));
      await own.control.kill();
      down = true;
      const received: string[] = [];
      // The rejected subscribe keeps no listener: the message after reaches the next one only.
      await expect(
        subscriber.subscribe("news", (message) => received.push(`rejected ${message}`)),
      ).rejects.toThrow("Connection terminated unexpectedly");
      await nothingLeftBehind(before);
      // A back-off would have tried again after 100 ms: none comes in five times as long. (A slow
      // machine can only make this miss a retry, never fail a correct broker.)
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect([relay.connections, log.records, gaps]).toEqual([1, [], []]);
      await own.control.start();
      down = false;
      await subscriber.subscribe("news", (message) => received.push(message));
      expect(relay.connections).toBe(2);
      await publisher.publish("news", "up");
      await waitFor(() => received.length === 1, "the message once the server is up");
      expect([received, log.records, gaps]).toEqual([["up"], [], []]);
    } finally {
      if (down) await own.control.start();
      await Promise.all([subscriber.close(), publisher.close()]);
      await relay.close();
    }
  });

  // As on Redis: a publish while PostgreSQL is down rejects, on a connection that was open (once it
  // is found dead) as on a new one, rather than waiting for the server.
  it("rejects each publish made while the server is down, and publishes again once it is back", async () => {
    const publisher = postgresPubSub({ connectionString: ownUrl, log: recordingLog() });
    const fresh = postgresPubSub({ connectionString: ownUrl, log: recordingLog() });
    const refused = `connect ECONNREFUSED 127.0.0.1:${new URL(ownUrl).port}`;
    let down = false;
    try {
      await publishOnceConnected(publisher, "news", "before");
      await own.control.kill();
      down = true;
      // The open connection's first publish may fail as it finds the connection dead; every one
      // rejects, and once the connection is given up the next fails to connect.
      const errors: string[] = [];
      while (!errors.includes(refused)) {
        errors.push(
          await publisher.publish("news", "during").then(
            () => "resolved",
            (error: Error) => error.message,
          ),
        );
        if (errors.length > 50) break;
      }
      expect(errors.at(-1)).toBe(refused);
      expect(errors).not.toContain("resolved");
      await expect(fresh.publish("news", "during")).rejects.toThrow(refused);
      await own.control.start();
      down = false;
      await publisher.publish("news", "after");
      await fresh.publish("news", "after");
    } finally {
      if (down) await own.control.start();
      await Promise.all([publisher.close(), fresh.close()]);
    }
  });

  it("after pg_terminate_backend of its listening connection: one warn, onGap once, and delivery again", async () => {
    const log = recordingLog();
    const subscriber = postgresPubSub({ connectionString: ownUrl, log });
    const publisher = postgresPubSub({ connectionString: ownUrl, log: recordingLog() });
    const admin = new pg.Client({ connectionString: ownUrl });
    await admin.connect();
    try {
      const received: string[] = [];
      const gaps: (Error | undefined)[] = [];
      subscriber.onGap((error) => gaps.push(error));
      await subscriber.subscribe("news", (message) => received.push(message));
      await publisher.publish("news", "before");
      await waitFor(() => received.length === 1, "the message before");
      const terminated = await admin.query<{ terminated: boolean }>(
        // The broker's listening connection: its other one last sent a pg_notify.
        "select pg_terminate_backend(pid) as terminated from pg_stat_activity where application_name = 'unruffled-pubsub' and query not like '%pg_notify%'",
      );
      expect(terminated.rows).toEqual([{ terminated: true }]);
      await waitFor(() => gaps.length === 1, "onGap", 30_000);
      // The publisher's connection was not touched: the next message arrives on the new listener.
      await publisher.publish("news", "after");
      await waitFor(() => received.length === 2, "the message after");
      expect(received).toEqual(["before", "after"]);
      expect(gaps[0]).toBeInstanceOf(Error);
      expect(log.records.map((record) => [record.level, record.message])).toEqual([
        [
          "warn",
          "PubSub: lost the PostgreSQL connection; reconnecting. Messages published until it is back are lost",
        ],
      ]);
    } finally {
      await admin.end();
      await Promise.all([subscriber.close(), publisher.close()]);
    }
  });

  it("closes while it is trying to reconnect: close resolves, and no timer, socket or attempt is left", async () => {
    const relay = await silentRelay(Number(new URL(ownUrl).port));
    const before = activeResources();
    const log = recordingLog();
    const subscriber = postgresPubSub({ connectionString: through(relay), log });
    const gaps: unknown[] = [];
    subscriber.onGap((error) => gaps.push(error));
    await subscriber.subscribe("news", () => {});
    await own.control.kill();
    try {
      await waitFor(() => relay.connections >= 3, "two attempts to reconnect");
      await subscriber.close();
      await nothingLeftBehind(before);
      expect(gaps).toEqual([]);
      expect(log.records).toHaveLength(1);
    } finally {
      await relay.close();
      await own.control.start();
    }
  });

  it("notices a network cut of its subscribing connection (no answer within its timeout), then reconnects and tells the gap", async () => {
    // The relay keeps the connection open and passes nothing either way, as a cut network does. The
    // timeout is short for the test but long beside an answer on loopback, even on a busy machine: a
    // check that timed out before the cut would log a second outage.
    const relay = await silentRelay(Number(new URL(ownUrl).port));
    const log = recordingLog();
    const subscriber = postgresPubSub({ connectionString: through(relay), log, timeout: 1500 });
    const publisher = postgresPubSub({ connectionString: ownUrl, log: recordingLog() });
    try {
      const received: string[] = [];
      const gaps: (Error | undefined)[] = [];
      subscriber.onGap((error) => gaps.push(error));
      await subscriber.subscribe("news", (message) => received.push(message));
      await publisher.publish("news", "before");
      await waitFor(() => received.length === 1, "the message before the cut");
      relay.mute();
      await publisher.publish("news", "lost");
      await waitFor(() => log.records.length === 1, "the gap's record", 30_000);
      expect(log.records.map((record) => [record.level, record.message])).toEqual([
        [
          "warn",
          "PubSub: lost the PostgreSQL connection; reconnecting. Messages published until it is back are lost",
        ],
      ]);
      relay.unmute();
      await waitFor(() => gaps.length === 1, "onGap", 30_000);
      await publisher.publish("news", "after");
      await waitFor(() => received.length === 2, "the message after the cut");
      expect(received).toEqual(["before", "after"]);
      expect(log.records).toHaveLength(1);
    } finally {
      await Promise.all([subscriber.close(), publisher.close()]);
      await relay.close();
    }
  });
});
