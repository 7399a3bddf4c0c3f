import { afterAll, describe, expect, it } from "vitest";
import { defaultPubSub, memoryPubSub, workersPubSub } from "../../src/pubsub/index.ts";
import { activeResources, brokerRules, nothingLeftBehind } from "./support/broker-rules.ts";

describe("memoryPubSub", () => {
  const pubsub = memoryPubSub({ log: { warn() {}, error() {} } });
  afterAll(() => pubsub.close());
  brokerRules(() => ({ publisher: pubsub, subscriber: pubsub }));

  it("delivers to this process's subscribers before publish() resolves", async () => {
    const local = memoryPubSub();
    const received: string[] = [];
    await local.subscribe("news", (message) => received.push(message));
    await local.publish("news", "hello");
    expect(received).toEqual(["hello"]);
    await local.close();
  });

  it("delivers a message published by a listener after the message being delivered, to everyone", async () => {
    const local = memoryPubSub();
    const received: string[] = [];
    await local.subscribe("t", (message) => {
      received.push(`first ${message}`);
      if (message === "a") void local.publish("t", "b");
    });
    await local.subscribe("t", (message) => received.push(`second ${message}`));
    await local.publish("t", "a");
    expect(received).toEqual(["first a", "second a", "first b", "second b"]);
    await local.close();
  });

  it("logs a listener that throws, with its topic", async () => {
    const errors: [Record<string, unknown>, string][] = [];
    const local = memoryPubSub({
      log: { warn() {}, error: (details, message) => errors.push([details, message]) },
    });
    await local.subscribe("t", () => {
      throw new Error("boom");
    });
    await local.publish("t", "x");
    expect(errors).toHaveLength(1);
    expect(errors[0]![1]).toBe("A PubSub listener threw; the other listeners were still called");
    expect(errors[0]![0].topic).toBe("t");
    expect((errors[0]![0].err as Error).message).toBe("boom");
    await local.close();
  });

  it("rejects publish and subscribe after close, and calls no listener again", async () => {
    const local = memoryPubSub();
    const received: string[] = [];
    await local.subscribe("t", (message) => received.push(message));
    await local.close();
    await expect(local.publish("t", "late")).rejects.toThrow(
      "The memory PubSub is closed: publish and subscribe on a new one",
    );
    await expect(local.subscribe("t", () => {})).rejects.toThrow(
      "The memory PubSub is closed: publish and subscribe on a new one",
    );
    expect(received).toEqual([]);
  });

  it("leaves no handle or timer behind after close", async () => {
    const before = activeResources();
    const local = memoryPubSub();
    await local.subscribe("t", () => {});
    local.onGap(() => {});
    await local.publish("t", "x");
    await local.close();
    await nothingLeftBehind(before);
  });

  it("has no gap: onGap returns a remover and is never told", async () => {
    const local = memoryPubSub();
    const gaps: unknown[] = [];
    const remove = local.onGap((error) => gaps.push(error));
    await local.subscribe("t", () => {});
    await local.publish("t", "x");
    remove();
    await local.close();
    expect(gaps).toEqual([]);
  });
});

// docs/pubsub.md: "defaultPubSub() (and the app's default) picks [the workers broker] in a worker of
// runWorkers, and the memory broker elsewhere" (in a worker: pubsub/workers.test.ts, through app.pubsub).
describe("defaultPubSub outside a worker", () => {
  it("is the memory broker: it delivers before publish() resolves, and names itself memory once closed", async () => {
    const pubsub = defaultPubSub();
    const received: string[] = [];
    await pubsub.subscribe("news", (message) => received.push(message));
    await pubsub.publish("news", "hello");
    expect(received).toEqual(["hello"]);
    await pubsub.close();
    await expect(pubsub.publish("news", "late")).rejects.toThrow(
      "The memory PubSub is closed: publish and subscribe on a new one",
    );
  });

  it("is needed there: workersPubSub() outside a worker says to use memoryPubSub()", () => {
    expect(() => workersPubSub()).toThrow(
      "workersPubSub() runs in a worker of `unruffled serve --workers N` (or runWorkers), whose primary relays the messages; use memoryPubSub() in one process",
    );
  });
});
