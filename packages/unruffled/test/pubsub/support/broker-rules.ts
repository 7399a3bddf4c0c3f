import { expect, it } from "vitest";
import type { PubSub } from "../../../src/pubsub/index.ts";

/** Two handles on one broker: for a networked broker, two connections, as two processes would hold. */
export interface BrokerPair {
  publisher: PubSub;
  subscriber: PubSub;
}

/** Resolves once `predicate` holds, checking after every message; fails the test after `timeout`. */
export function waitFor(predicate: () => boolean, what: string, timeout = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      if (predicate()) return resolve();
      if (Date.now() - started > timeout) return reject(new Error(`Timed out waiting for ${what}`));
      setTimeout(check, 5);
    };
    check();
  });
}

let topicCount = 0;
/** A topic of its own per test, so that brokers shared between tests do not mix their messages. */
export function freshTopic(name: string): string {
  topicCount += 1;
  return `${name}:${process.pid}:${topicCount}:${Math.random().toString(36).slice(2)}`;
}

/**
 * The rules every broker keeps, one test each. `pair()` gives two handles on one broker (the same
 * object for the memory broker); the caller closes them.
 */
export function brokerRules(pair: () => BrokerPair): void {
  it("delivers each message exactly once per subscription, to every subscription of the topic", async () => {
    const { publisher, subscriber } = pair();
    const topic = freshTopic("once");
    const first: string[] = [];
    const second: string[] = [];
    const onPublisherSide: string[] = [];
    const listener = (message: string) => first.push(message);
    // The same function subscribed twice is two subscriptions.
    const unsubscribers = [
      await subscriber.subscribe(topic, listener),
      await subscriber.subscribe(topic, (message) => second.push(message)),
      await publisher.subscribe(topic, (message) => onPublisherSide.push(message)),
    ];
    const other: string[] = [];
    unsubscribers.push(await subscriber.subscribe(`${topic}-other`, (message) => other.push(message)));
    for (const message of ["a", "b", "c"]) await publisher.publish(topic, message);
    await publisher.publish(topic, "end");
    await waitFor(
      () => second.includes("end") && onPublisherSide.includes("end"),
      "the last message on every subscription",
    );
    expect(second).toEqual(["a", "b", "c", "end"]);
    expect(onPublisherSide).toEqual(["a", "b", "c", "end"]);
    await waitFor(() => first.filter((message) => message === "end").length === 1, "the first subscription");
    const unsubscribeTwin = await subscriber.subscribe(topic, listener);
    await publisher.publish(topic, "twice");
    await waitFor(() => second.includes("twice"), "the message after the second subscription");
    await publisher.publish(topic, "after");
    await waitFor(() => first.filter((message) => message === "after").length === 2, "both subscriptions");
    expect(first).toEqual(["a", "b", "c", "end", "twice", "twice", "after", "after"]);
    expect(other).toEqual([]);
    for (const unsubscribe of [...unsubscribers, unsubscribeTwin]) await unsubscribe();
  });

  it("keeps each publisher's order, even when publishes are not awaited one by one", async () => {
    const { publisher, subscriber } = pair();
    const topic = freshTopic("order");
    const received: string[] = [];
    const unsubscribe = await subscriber.subscribe(topic, (message) => received.push(message));
    const sent = Array.from({ length: 300 }, (_, index) => `message ${index}`);
    await Promise.all(sent.map((message) => publisher.publish(topic, message)));
    await waitFor(() => received.length === sent.length, "every message");
    expect(received).toEqual(sent);
    await unsubscribe();
  });

  it("delivers equal messages published together once each", async () => {
    const { publisher, subscriber } = pair();
    const topic = freshTopic("equal");
    const received: string[] = [];
    const unsubscribe = await subscriber.subscribe(topic, (message) => received.push(message));
    await Promise.all(Array.from({ length: 50 }, () => publisher.publish(topic, "same")));
    await publisher.publish(topic, "end");
    await waitFor(() => received.includes("end"), "the last message");
    expect(received).toEqual([...Array.from({ length: 50 }, () => "same"), "end"]);
    await unsubscribe();
  });

  it("stops delivering to a subscription once its unsubscribe resolves, and to no other", async () => {
    const { publisher, subscriber } = pair();
    const topic = freshTopic("unsubscribe");
    const leaving: string[] = [];
    const staying: string[] = [];
    const leave = await subscriber.subscribe(topic, (message) => leaving.push(message));
    const stay = await subscriber.subscribe(topic, (message) => staying.push(message));
    await publisher.publish(topic, "before");
    await waitFor(() => leaving.length === 1 && staying.length === 1, "the first message");
    await leave();
    await leave(); // a second call does nothing
    await publisher.publish(topic, "after");
    await publisher.publish(topic, "end");
    await waitFor(() => staying.includes("end"), "the last message");
    expect(leaving).toEqual(["before"]);
    expect(staying).toEqual(["before", "after", "end"]);
    await stay();
  });

  it("calls every listener when one throws, and keeps delivering to it", async () => {
    const { publisher, subscriber } = pair();
    const topic = freshTopic("throws");
    const calls: string[] = [];
    const unsubscribeThrowing = await subscriber.subscribe(topic, (message) => {
      calls.push(`throwing ${message}`);
      throw new Error("listener failed");
    });
    const unsubscribe = await subscriber.subscribe(topic, (message) => calls.push(`other ${message}`));
    await publisher.publish(topic, "1");
    await publisher.publish(topic, "2");
    await waitFor(() => calls.length === 4, "both messages on both listeners");
    expect(calls).toEqual(["throwing 1", "other 1", "throwing 2", "other 2"]);
    await unsubscribeThrowing();
    await unsubscribe();
  });

  it("refuses a topic that is not a non-empty string and a message that is not a string", async () => {
    const { publisher } = pair();
    await expect(publisher.publish("", "x")).rejects.toThrow('A PubSub topic is a non-empty string, got ""');
    await expect(publisher.publish("t", { a: 1 } as unknown as string)).rejects.toThrow(
      "A PubSub message is a string (JSON.stringify an object), got object",
    );
    await expect(publisher.subscribe(42 as unknown as string, () => {})).rejects.toThrow(
      "A PubSub topic is a non-empty string, got 42",
    );
  });
}

/** The handles, descriptors and timers of this process, to compare before and after a broker's life. */
export function activeResources(): string[] {
  return process.getActiveResourcesInfo().sort();
}

/**
 * Resolves once this process holds no more resources of any kind than `before` did (a socket that
 * the test's own queries were still closing may be gone meanwhile); fails the test after 15 s.
 */
export async function nothingLeftBehind(before: string[]): Promise<void> {
  const counts = (resources: string[]) => {
    const byKind = new Map<string, number>();
    for (const kind of resources) byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
    return byKind;
  };
  const allowed = counts(before);
  const excess = () =>
    [...counts(activeResources())]
      .filter(([kind, count]) => count > (allowed.get(kind) ?? 0))
      .map(([kind]) => kind);
  await waitFor(() => excess().length === 0, "the broker's resources to be released").catch(() => {
    throw new Error(`Left behind: ${excess().join(", ")}`);
  });
}

/**
 * Checks when a broker tried to reconnect: `lostAt` (its `warn` record), then each attempt. Each wait
 * is at least its delay: 100 ms, twice as long after each failed attempt, up to 2 s. Only the cap is
 * checked against a ceiling, with 2 s of slack for a busy machine: without it the seventh and eighth
 * waits would be 6.4 s and 12.8 s.
 */
export function expectReconnectionSchedule(lostAt: number, attemptsAt: readonly number[]): void {
  const times = [lostAt, ...attemptsAt];
  const waits = times.slice(1).map((at, index) => at - times[index]!);
  expect(waits.length).toBeGreaterThanOrEqual(8);
  for (const [index, ms] of waits.entries()) {
    // Timers never fire early; 5 ms for the rounding of the clocks.
    expect(ms, `wait ${index + 1}`).toBeGreaterThanOrEqual(Math.min(2_000, 100 * 2 ** index) - 5);
    if (index >= 6) expect(ms, `wait ${index + 1}`).toBeLessThan(4_000);
  }
}

/**
 * Publishes until one publish succeeds: on a busy machine a broker with a short `timeout` may give
 * up on its first connection, and the test is about what comes after it.
 */
export async function publishOnceConnected(pubsub: PubSub, topic: string, message: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pubsub.publish(topic, message);
    } catch (error) {
      if (attempt === 50) throw error;
    }
  }
}
