import { createApp } from "unruffled";
import { memoryPubSub, type PubSub } from "unruffled/pubsub";
import { path } from "unruffled/route";
import { testClient } from "unruffled/testing";
import { publish, websocket } from "unruffled/websocket";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const feed = websocket({
  inbound: z.discriminatedUnion("type", [
    z.object({ type: z.literal("follow"), topic: z.string() }),
    z.object({ type: z.literal("unfollow"), topic: z.string() }),
  ]),
  outbound: z.discriminatedUnion("type", [
    z.object({ type: z.literal("following"), topic: z.string() }),
    z.object({ type: z.literal("unfollowed"), topic: z.string() }),
    z.object({ type: z.literal("news"), topic: z.string(), n: z.int() }),
  ]),
  async handler(socket) {
    for await (const message of socket) {
      if (message.type === "follow") {
        await socket.subscribe(message.topic);
        await socket.send({ type: "following", topic: message.topic });
      } else {
        await socket.unsubscribe(message.topic);
        await socket.send({ type: "unfollowed", topic: message.topic });
      }
    }
  },
});

/** A broker that counts the subscriptions open on it. */
function counting(broker: PubSub) {
  const counts = { open: 0 };
  const wrapped: PubSub = {
    publish: (topic, message) => broker.publish(topic, message),
    async subscribe(topic, listener) {
      const unsubscribe = await broker.subscribe(topic, listener);
      counts.open++;
      let ended = false;
      return async () => {
        if (!ended) counts.open--;
        ended = true;
        await unsubscribe();
      };
    },
    onGap: (listener) => broker.onGap(listener),
    close: () => broker.close(),
  };
  return { broker: wrapped, counts };
}

function setUp() {
  const { broker, counts } = counting(memoryPubSub());
  const app = createApp({ pubsub: broker, routes: [path("/feed", { websocket: feed })] });
  return { app, counts, client: testClient(app) };
}

const news = (topic: string, n: number) => ({ type: "news" as const, topic, n });

describe("WebSocket topics", () => {
  it("deliver each published message to every subscribed socket exactly once, in order", async () => {
    const { app, client } = setUp();
    const [first, second, other] = await Promise.all([
      client.websocket(feed),
      client.websocket(feed),
      client.websocket(feed),
    ]);
    for (const [socket, topic] of [
      [first, "a"],
      [second, "a"],
      [other, "b"],
    ] as const) {
      await socket.send({ type: "follow", topic });
      expect(await socket.receive()).toEqual({ type: "following", topic });
    }
    for (let n = 1; n <= 3; n++) await publish(app, feed, "a", news("a", n));
    await publish(app, feed, "b", news("b", 9));
    for (const socket of [first, second]) {
      expect([await socket.receive(), await socket.receive(), await socket.receive()]).toEqual([
        news("a", 1),
        news("a", 2),
        news("a", 3),
      ]);
    }
    expect(await other.receive()).toEqual(news("b", 9));
    await app.close();
  });

  it("deliver a message once to a socket that subscribed to its topic twice", async () => {
    const { app, client, counts } = setUp();
    const socket = await client.websocket(feed);
    for (let round = 0; round < 2; round++) {
      await socket.send({ type: "follow", topic: "a" });
      expect(await socket.receive()).toEqual({ type: "following", topic: "a" });
    }
    expect(counts.open).toBe(1);
    await publish(app, feed, "a", news("a", 1));
    await publish(app, feed, "a", news("a", 2));
    expect(await socket.receive()).toEqual(news("a", 1));
    expect(await socket.receive()).toEqual(news("a", 2));
    await app.close();
  });

  it("stop after unsubscribe", async () => {
    const { app, client, counts } = setUp();
    const socket = await client.websocket(feed);
    await socket.send({ type: "follow", topic: "a" });
    await socket.receive();
    await socket.send({ type: "unfollow", topic: "a" });
    expect(await socket.receive()).toEqual({ type: "unfollowed", topic: "a" });
    expect(counts.open).toBe(0);
    await publish(app, feed, "a", news("a", 1));
    await socket.send({ type: "follow", topic: "b" });
    // Had the message on "a" arrived, it would come before this answer.
    expect(await socket.receive()).toEqual({ type: "following", topic: "b" });
    await app.close();
  });

  it("end with the socket: its subscriptions are released when it closes", async () => {
    const { app, client, counts } = setUp();
    const socket = await client.websocket(feed);
    await socket.send({ type: "follow", topic: "a" });
    await socket.send({ type: "follow", topic: "b" });
    await socket.receive();
    await socket.receive();
    expect(counts.open).toBe(2);
    await socket.close();
    await expect.poll(() => counts.open).toBe(0);
    await app.close();
  });

  it("write published messages through the route's outbound model: an undeclared field never leaves", async () => {
    const { app, client } = setUp();
    const socket = await client.websocket(feed);
    await socket.send({ type: "follow", topic: "a" });
    await socket.receive();
    await publish(app, feed, "a", { ...news("a", 1), secret: "s3cret" } as never);
    expect(await socket.receive()).toEqual(news("a", 1));
    await app.close();
  });
});
