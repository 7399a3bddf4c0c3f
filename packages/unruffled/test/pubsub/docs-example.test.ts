import { startServer } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { app } from "../../../../docs/examples/pubsub/app.ts";

describe("docs/pubsub.md's example", () => {
  it("hears a published note in the process, through the broker module the app and handlers share", async () => {
    const server = await startServer(app);
    try {
      const posted = await server.fetch("/notes", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ room: "lobby", text: "hello" }),
      });
      expect([posted.status, await posted.json()]).toEqual([200, { published: true }]);
      const latest = await server.fetch("/notes/lobby/latest");
      expect(await latest.json()).toEqual({ room: "lobby", text: "hello", pid: process.pid });
    } finally {
      await server.close();
    }
    await expect(app.pubsub.publish("notes", "{}")).rejects.toThrow(
      "The memory PubSub is closed: publish and subscribe on a new one",
    );
  });
});
