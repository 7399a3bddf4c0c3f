import { createApp } from "unruffled";
import { memoryPubSub, type PubSub } from "unruffled/pubsub";
import { path } from "unruffled/route";
import { testClient } from "unruffled/testing";
import { publish, type ServerWebSocket, websocket } from "unruffled/websocket";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { rawWebSocket } from "./raw-websocket.ts";

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

  it("stop after one unsubscribe for a socket that subscribed twice: twice is still once", async () => {
    const { app, client, counts } = setUp();
    const socket = await client.websocket(feed);
    for (let time = 0; time < 2; time++) {
      await socket.send({ type: "follow", topic: "a" });
      await socket.receive();
    }
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

/** The payloads of the server's text frames among `bytes` (unmasked), as far as they arrived whole. */
function textPayloads(bytes: Buffer): string[] {
  const payloads: string[] = [];
  let offset = 0;
  while (offset + 2 <= bytes.length) {
    let length = bytes[offset + 1]! & 0x7f;
    let start = offset + 2;
    if (length === 126) {
      if (start + 2 > bytes.length) break;
      length = bytes.readUInt16BE(start);
      start += 2;
    } else if (length === 127) {
      if (start + 8 > bytes.length) break;
      length = Number(bytes.readBigUInt64BE(start));
      start += 8;
    }
    if (start + length > bytes.length) break;
    if ((bytes[offset]! & 0x0f) === 0x1) payloads.push(bytes.subarray(start, start + length).toString());
    offset = start + length;
  }
  return payloads;
}

describe("a broadcast to a socket whose client does not read", () => {
  const CHUNK = "x".repeat(16 * 1024);
  const MARK = 64 * 1024;
  /** A route that follows "flood", with a small high-water mark; `sockets` holds its open socket. */
  function floodApp(onBackpressure: "wait" | "drop") {
    const sockets: ServerWebSocket<unknown, unknown>[] = [];
    const flood = websocket({
      inbound: z.object({ type: z.literal("noop") }),
      outbound: z.object({ seq: z.int(), chunk: z.string() }),
      highWaterMark: MARK,
      onBackpressure,
      async handler(socket) {
        await socket.subscribe("flood");
        sockets.push(socket as ServerWebSocket<unknown, unknown>);
        for await (const _message of socket) {
          // A receiver only.
        }
      },
    });
    return { app: createApp({ routes: [path("/flood", { websocket: flood })] }), flood, sockets };
  }

  it("closes it with 1013 once it holds the high-water mark", async () => {
    const { app, flood, sockets } = floodApp("wait");
    await app.listen({ port: 0 });
    const raw = await rawWebSocket(app.address()!.port, "/flood", { read: false });
    await expect.poll(() => sockets.length).toBe(1);
    // One publish a turn, until the kernel's buffers and then the mark are full.
    for (let seq = 0; !sockets[0]!.closed; seq++) {
      if (seq === 5_000) throw new Error("the socket was never closed");
      await publish(app, flood, "flood", { seq, chunk: CHUNK });
      await new Promise((resolve) => setImmediate(resolve));
    }
    raw.socket.resume();
    await raw.until(() => raw.closeCode() !== undefined);
    expect(raw.closeCode()).toBe(1013);
    raw.socket.destroy();
    await app.close();
  }, 60_000);

  it('under "drop", leaves it open: it misses the messages published while it held the mark', async () => {
    const { app, flood, sockets } = floodApp("drop");
    await app.listen({ port: 0 });
    const raw = await rawWebSocket(app.address()!.port, "/flood", { read: false });
    await expect.poll(() => sockets.length).toBe(1);
    const socket = sockets[0]!;
    let seq = 0;
    for (; socket.bufferedAmount < MARK; seq++) {
      if (seq === 5_000) throw new Error("the socket never held its mark");
      await publish(app, flood, "flood", { seq, chunk: CHUNK });
      await new Promise((resolve) => setImmediate(resolve));
    }
    const firstMissed = seq;
    for (; seq < firstMissed + 10; seq++) await publish(app, flood, "flood", { seq, chunk: CHUNK });
    raw.socket.resume();
    await expect.poll(() => socket.bufferedAmount, { timeout: 30_000 }).toBe(0);
    await publish(app, flood, "flood", { seq: -1, chunk: "" });
    const received = () => textPayloads(raw.bytes()).map((payload) => JSON.parse(payload).seq as number);
    await raw.until(() => received().includes(-1));
    expect(received()).toEqual([...Array.from({ length: firstMissed }, (_, index) => index), -1]);
    expect(socket.closed).toBe(false);
    raw.socket.destroy();
    await app.close();
  }, 60_000);
});
