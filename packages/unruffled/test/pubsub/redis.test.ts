import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type PubSub, redisPubSub } from "../../src/pubsub/index.ts";
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
import { recordingLog } from "./support/recording-log.ts";
import { startRedis, type TestRedis } from "./support/redis-server.ts";

vi.setConfig({ testTimeout: 60_000 });

let redis: TestRedis;
const opened: PubSub[] = [];
function open(): PubSub {
  const pubsub = redisPubSub({ url: redis.url, log: recordingLog() });
  opened.push(pubsub);
  return pubsub;
}
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await Promise.all(opened.map((pubsub) => pubsub.close()));
  await redis?.stop();
});

describe("redisPubSub", () => {
  let publisher: PubSub;
  let subscriber: PubSub;
  beforeAll(() => {
    publisher = open();
    subscriber = open();
  });
  brokerRules(() => ({ publisher, subscriber }));

  it("carries a 1 MB message as it is, in order with the small ones around it", async () => {
    const topic = freshTopic("large");
    const received: string[] = [];
    await subscriber.subscribe(topic, (message) => received.push(message));
    const large = "é".repeat(500_000);
    await Promise.all([
      publisher.publish(topic, "before"),
      publisher.publish(topic, large),
      publisher.publish(topic, "after"),
    ]);
    await waitFor(() => received.length === 3, "three messages");
    expect(received).toEqual(["before", large, "after"]);
  });

  it("refuses a url it cannot use, when made", () => {
    expect(() => redisPubSub({ url: "" })).toThrow("redisPubSub() needs a url: redis://host:6379");
  });

  it("rejects publish and subscribe after close, and leaves no connection or timer behind", async () => {
    const before = activeResources();
    const pubsub = redisPubSub({ url: redis.url, log: recordingLog() });
    const received: string[] = [];
    await pubsub.subscribe("t", (message) => received.push(message));
    pubsub.onGap(() => {});
    await pubsub.publish("t", "x");
    await waitFor(() => received.length === 1, "the message");
    await pubsub.close();
    await expect(pubsub.publish("t", "late")).rejects.toThrow(
      "The Redis PubSub is closed: publish and subscribe on a new one",
    );
    await expect(pubsub.subscribe("t", () => {})).rejects.toThrow(
      "The Redis PubSub is closed: publish and subscribe on a new one",
    );
    await nothingLeftBehind(before);
  });
});

describe("redisPubSub when Redis takes the connection and never answers", () => {
  it("refuses a timeout that is not a whole number of ms from 1", () => {
    expect(() => redisPubSub({ url: "redis://127.0.0.1:6379", timeout: 0 })).toThrow(
      "redisPubSub(): timeout must be a whole number of milliseconds, at least 1, got 0",
    );
  });

  it("fails a publish after its timeout, then closes, and leaves no connection or timer behind", async () => {
    const before = activeResources();
    const silent = await silentRelay();
    const pubsub = redisPubSub({
      url: `redis://127.0.0.1:${silent.port}`,
      log: recordingLog(),
      timeout: 200,
    });
    await expect(pubsub.publish("t", "x")).rejects.toThrow(
      "Redis did not answer within 200 ms of connecting",
    );
    await expect(pubsub.publish("t", "y")).rejects.toThrow(
      "Redis did not answer within 200 ms of connecting",
    );
    await pubsub.close();
    await silent.close();
    await nothingLeftBehind(before);
  });
  it("fails a publish that Redis stops answering, and publishes again on a new connection", async () => {
    const relay = await silentRelay(redis.port);
    const pubsub = redisPubSub({ url: `redis://127.0.0.1:${relay.port}`, log: recordingLog(), timeout: 200 });
    await publishOnceConnected(pubsub, "t", "first");
    relay.mute();
    await expect(pubsub.publish("t", "second")).rejects.toThrow(
      'Redis did not answer the publish to "t" within 200 ms',
    );
    // The muted connection was dropped: the next publish opens one, which the relay leaves unanswered.
    await expect(pubsub.publish("t", "third")).rejects.toThrow(
      "Redis did not answer within 200 ms of connecting",
    );
    await pubsub.close();
    await relay.close();
  });
});

describe("redisPubSub when the server restarts", () => {
  let own: TestRedis;
  beforeAll(async () => {
    own = await startRedis();
  });
  afterAll(() => own?.stop());

  it("resubscribes, logs the gap once, tells onGap once per outage, and delivers again", async () => {
    const log = recordingLog();
    const subscriber = redisPubSub({ url: own.url, log });
    const publisher = redisPubSub({ url: own.url, log: recordingLog() });
    try {
      const received: string[] = [];
      const gaps: (Error | undefined)[] = [];
      subscriber.onGap((error) => gaps.push(error));
      // onGap returns its remover: a listener removed before the outages is told of none.
      const removedToldOf: unknown[] = [];
      subscriber.onGap((error) => removedToldOf.push(error))();
      await subscriber.subscribe("news", (message) => received.push(message));
      await subscriber.subscribe("other", () => {});
      await publisher.publish("news", "before");
      await waitFor(() => received.length === 1, "the message before the outage");
      for (const outage of [1, 2]) {
        await own.kill();
        await waitFor(() => log.records.length === outage, "the gap's record");
        // A publish while Redis is away rejects at once.
        await expect(publisher.publish("news", "lost")).rejects.toThrow();
        // Several reconnection attempts fail while the server is down; the record stays one.
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await own.start();
        await waitFor(() => gaps.length === outage, "onGap", 30_000);
        const after = `after outage ${outage}`;
        for (let attempt = 0; !received.includes(after); attempt++) {
          await publisher.publish("news", after).catch(() => undefined);
          await new Promise((resolve) => setTimeout(resolve, 100));
          if (attempt > 300) throw new Error("no message after the outage");
        }
      }
      expect(new Set(received)).toEqual(new Set(["before", "after outage 1", "after outage 2"]));
      expect(gaps).toHaveLength(2);
      expect(gaps[0]).toBeInstanceOf(Error);
      expect(removedToldOf).toEqual([]);
      const warning =
        "PubSub: lost the Redis connection; reconnecting. Messages published until it is back are lost";
      expect(log.records.map((record) => [record.level, record.message])).toEqual([
        ["warn", warning],
        ["warn", warning],
      ]);
    } finally {
      await Promise.all([subscriber.close(), publisher.close()]);
    }
  });
});

describe("redisPubSub's reconnection, attempt by attempt", () => {
  let own: TestRedis;
  beforeAll(async () => {
    own = await startRedis();
  });
  afterAll(() => own?.stop());

  it("tries again after 100 ms, then twice as long after each failed attempt, up to 2 s, while anyone subscribes", async () => {
    // The relay records each attempt to connect; the real server behind it is stopped.
    const relay = await silentRelay(own.port);
    const before = activeResources();
    const log = recordingLog();
    const subscriber = redisPubSub({ url: `redis://127.0.0.1:${relay.port}`, log });
    const publisher = redisPubSub({ url: own.url, log: recordingLog() });
    try {
      const gaps: (Error | undefined)[] = [];
      subscriber.onGap((error) => gaps.push(error));
      const unsubscribe = await subscriber.subscribe("news", () => {});
      expect(relay.connections).toBe(1);
      await own.kill();
      await waitFor(() => relay.connections === 9, "eight attempts to reconnect", 30_000);
      await unsubscribe();
      expectReconnectionSchedule(log.records[0]!.at, relay.acceptedAt.slice(1));
      // Nobody subscribes any more: the attempts stop, and nothing is left running.
      await nothingLeftBehind(before);
      const attemptsMade = relay.connections;
      expect(gaps).toEqual([]);
      expect(log.records.map((record) => record.message)).toEqual([
        "PubSub: lost the Redis connection; reconnecting. Messages published until it is back are lost",
      ]);
      // Back, the next subscribe connects, and the gap of the outage is told then.
      await own.start();
      const received: string[] = [];
      await subscriber.subscribe("news", (message) => received.push(message));
      expect(relay.connections).toBe(attemptsMade + 1);
      expect(gaps).toHaveLength(1);
      await publisher.publish("news", "back");
      await waitFor(() => received.length === 1, "the message after the outage");
      expect(received).toEqual(["back"]);
    } finally {
      await Promise.all([subscriber.close(), publisher.close()]);
    }
    await relay.close();
    await nothingLeftBehind(before);
  });

  it("goes on reconnecting after a subscribe made during the outage failed, and delivers on both topics", async () => {
    const log = recordingLog();
    const subscriber = redisPubSub({ url: own.url, log });
    const publisher = redisPubSub({ url: own.url, log: recordingLog() });
    try {
      const received: string[] = [];
      const gaps: (Error | undefined)[] = [];
      subscriber.onGap((error) => gaps.push(error));
      await subscriber.subscribe("news", (message) => received.push(`news ${message}`));
      await own.kill();
      await waitFor(() => log.records.length === 1, "the gap's record");
      await expect(subscriber.subscribe("sport", () => {})).rejects.toThrow(
        `connect ECONNREFUSED 127.0.0.1:${own.port}`,
      );
      await own.start();
      await waitFor(() => gaps.length === 1, "onGap", 30_000);
      await subscriber.subscribe("sport", (message) => received.push(`sport ${message}`));
      await publisher.publish("news", "a");
      await publisher.publish("sport", "b");
      await waitFor(() => received.length === 2, "both messages");
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
    const relay = await silentRelay(own.port);
    const before = activeResources();
    const log = recordingLog();
    const subscriber = redisPubSub({ url: `redis://127.0.0.1:${relay.port}`, log });
    const publisher = redisPubSub({ url: own.url, log: recordingLog() });
    let down = false;
    try {
      const gaps: (Error | undefined)[] = [];
      subscriber.onGap((error) => gaps.push(error));
      await own.kill();
      down = true;
      const received: string[] = [];
      // The rejected subscribe keeps no listener: the message after reaches the next one only.
      await expect(
        subscriber.subscribe("news", (message) => received.push(`rejected ${message}`)),
      ).rejects.toThrow("Socket closed unexpectedly");
      await nothingLeftBehind(before);
      // A back-off would have tried again after 100 ms: none comes in five times as long. (A slow
      // machine can only make this miss a retry, never fail a correct broker.)
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect([relay.connections, log.records, gaps]).toEqual([1, [], []]);
      await own.start();
      down = false;
      await subscriber.subscribe("news", (message) => received.push(message));
      expect(relay.connections).toBe(2);
      await publisher.publish("news", "up");
      await waitFor(() => received.length === 1, "the message once the server is up");
      expect([received, log.records, gaps]).toEqual([["up"], [], []]);
    } finally {
      if (down) await own.start();
      await Promise.all([subscriber.close(), publisher.close()]);
      await relay.close();
    }
  });

  it("closes while it is trying to reconnect: close resolves, and no timer, socket or attempt is left", async () => {
    const relay = await silentRelay(own.port);
    const before = activeResources();
    const log = recordingLog();
    const subscriber = redisPubSub({ url: `redis://127.0.0.1:${relay.port}`, log });
    const gaps: unknown[] = [];
    subscriber.onGap((error) => gaps.push(error));
    await subscriber.subscribe("news", () => {});
    await own.kill();
    try {
      await waitFor(() => relay.connections >= 3, "two attempts to reconnect");
      await subscriber.close();
      await nothingLeftBehind(before);
      expect(gaps).toEqual([]);
      expect(log.records).toHaveLength(1);
    } finally {
      await relay.close();
      await own.start();
    }
  });

  it("notices a network cut of its subscribing connection (no answer within its timeout), then reconnects and tells the gap", async () => {
    // The relay keeps the connection open and passes nothing either way, as a cut network does. The
    // timeout is short for the test but long beside an answer on loopback, even on a busy machine: a
    // check that timed out before the cut would log a second outage.
    const relay = await silentRelay(own.port);
    const log = recordingLog();
    const subscriber = redisPubSub({ url: `redis://127.0.0.1:${relay.port}`, log, timeout: 1500 });
    const publisher = redisPubSub({ url: own.url, log: recordingLog() });
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
          "PubSub: lost the Redis connection; reconnecting. Messages published until it is back are lost",
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
