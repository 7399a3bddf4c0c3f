import { createApp, StartupError } from "unruffled";
import { testClient } from "unruffled/testing";
import { expect, it } from "vitest";
import { app, outbox } from "./app.ts";

it("sends the welcome mail after the answer", async () => {
  // The test client runs onStartup before its first request, and waits for the afterResponse work.
  const response = await testClient(app).post("/sign-up", { json: { email: "ann@example.com" } });
  expect([response.status, outbox]).toEqual([201, ["Welcome, ann@example.com!"]]);
});

it("does not start when a hook fails: listen() rejects with one line", async () => {
  const broken = createApp({
    routes: [],
    onStartup: async function openDatabase() {
      throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
    },
  });
  await expect(broken.listen({ port: 0 })).rejects.toThrow(
    new StartupError("onStartup failed (openDatabase): connect ECONNREFUSED 127.0.0.1:5432"),
  );
});
