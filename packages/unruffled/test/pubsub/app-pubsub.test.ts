import { createApp } from "unruffled";
import { PlainTextResponse } from "unruffled/http";
import { memoryPubSub, type PubSub } from "unruffled/pubsub";
import { endpoint, path } from "unruffled/route";
import { startServer } from "unruffled/testing";
import { describe, expect, it } from "vitest";

const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("Hello") });
const routes = [path("/hello", { endpoint: hello })];

describe("app.pubsub", () => {
  it("is a broker within the process by default, made on first use and the same afterwards", async () => {
    const app = createApp({ routes });
    const received: string[] = [];
    await app.pubsub.subscribe("t", (message) => received.push(message));
    await app.pubsub.publish("t", "hello");
    expect(received).toEqual(["hello"]);
    expect(app.pubsub).toBe(app.pubsub);
    await app.close();
  });

  it("is the broker given to createApp({ pubsub }), shared with the copies of withOverrides()", async () => {
    const pubsub = memoryPubSub();
    const app = createApp({ routes, pubsub });
    expect(app.pubsub).toBe(pubsub);
    expect(app.withOverrides([]).pubsub).toBe(pubsub);
    await app.close();
  });

  it("is closed by app.close() once the server has closed: later publishes reject", async () => {
    const closes: string[] = [];
    const given = memoryPubSub();
    const pubsub: PubSub = {
      publish: (topic, message) => given.publish(topic, message),
      subscribe: (topic, listener) => given.subscribe(topic, listener),
      onGap: (listener) => given.onGap(listener),
      close: async () => {
        closes.push(`pubsub closed, listening: ${app.address() !== undefined}`);
        await given.close();
      },
    };
    const app = createApp({ routes, pubsub, onClose: () => void closes.push("onClose") });
    const server = await startServer(app);
    await server.close();
    expect(closes).toEqual(["pubsub closed, listening: false", "onClose"]);
    await expect(app.pubsub.publish("t", "late")).rejects.toThrow(
      "The memory PubSub is closed: publish and subscribe on a new one",
    );
  });

  it("is closed by app.close() after the work afterResponse() queued, which may still publish, and before onClose", async () => {
    const order: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const given = memoryPubSub();
    const pubsub: PubSub = {
      publish: (topic, message) => given.publish(topic, message),
      subscribe: (topic, listener) => given.subscribe(topic, listener),
      onGap: (listener) => given.onGap(listener),
      close: async () => {
        order.push("pubsub closed");
        await given.close();
      },
    };
    const notify = endpoint({
      returns: PlainTextResponse,
      handler: (request) => {
        request.afterResponse(async () => {
          order.push("work started");
          await released;
          await pubsub.publish("news", "from the queued work");
          order.push("work published");
        });
        return new PlainTextResponse("queued");
      },
    });
    const heard: string[] = [];
    await pubsub.subscribe("news", (message) => heard.push(message));
    const app = createApp({
      routes: [path("/notify", { endpoint: notify })],
      pubsub,
      onClose: () => void order.push("onClose"),
    });
    const server = await startServer(app);
    expect(await (await server.fetch("/notify")).text()).toBe("queued");
    await expect.poll(() => order).toEqual(["work started"]);
    const closing = server.close();
    // The server has closed; the queued work has not finished, so neither is the broker closed.
    await expect.poll(() => app.address()).toBeUndefined();
    expect(order).toEqual(["work started"]);
    release();
    await closing;
    expect(order).toEqual(["work started", "work published", "pubsub closed", "onClose"]);
    expect(heard).toEqual(["from the queued work"]);
  });

  it("makes a new default broker for an app started again after close()", async () => {
    const app = createApp({ routes });
    const first = app.pubsub;
    await app.close();
    await expect(first.publish("t", "late")).rejects.toThrow("The memory PubSub is closed");
    const received: string[] = [];
    await app.pubsub.subscribe("t", (message) => received.push(message));
    await app.pubsub.publish("t", "again");
    expect(received).toEqual(["again"]);
    expect(app.pubsub).not.toBe(first);
    await app.close();
  });

  it("refuses a pubsub that is not a broker, when the app is built", () => {
    expect(() => createApp({ routes, pubsub: {} as PubSub })).toThrow(
      "createApp({ pubsub }) takes a PubSub: memoryPubSub(), postgresPubSub() or redisPubSub()",
    );
  });
});
