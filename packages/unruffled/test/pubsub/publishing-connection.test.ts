import { describe, expect, it } from "vitest";
import { PublishingConnection } from "../../src/pubsub/publishing-connection.ts";

/** Connections numbered in the order they are opened; `ended` lists those closed. */
function numbered() {
  let opened = 0;
  const ended: number[] = [];
  const connection = new PublishingConnection<number>({
    open: async () => ++opened,
    close: (number) => ended.push(number),
  });
  return { connection, ended };
}

describe("PublishingConnection.drop", () => {
  it("ends the connection in use, and the next ready() opens a new one", async () => {
    const { connection, ended } = numbered();
    const first = await connection.ready();
    connection.drop(first);
    await new Promise((resolve) => setImmediate(resolve));
    expect([ended, await connection.ready()]).toEqual([[1], 2]);
  });

  it("leaves alone a connection that is no longer the one in use", async () => {
    const { connection, ended } = numbered();
    const first = await connection.ready();
    connection.drop(first);
    await new Promise((resolve) => setImmediate(resolve));
    const second = await connection.ready();
    // A late failure of the first connection must not end the second.
    connection.drop(first);
    await new Promise((resolve) => setImmediate(resolve));
    expect([ended, await connection.ready()]).toEqual([[1], second]);
  });
});
