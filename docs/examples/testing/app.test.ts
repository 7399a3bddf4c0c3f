import { startServer, testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { app } from "../getting-started/app.ts";

const client = testClient(app);

describe("the shop", () => {
  it("says hello", async () => {
    const response = await client.get("/hello", { query: { name: "Ann" } });
    expect([response.status, response.text]).toEqual([200, "Hello, Ann!"]);
  });

  it("refuses an item id below 1", async () => {
    const response = await client.get("/items/0");
    expect(response.status).toBe(422);
    expect(response.json()).toEqual({
      detail: [
        {
          loc: ["path", "item_id"],
          msg: "Too small: expected number to be >=1",
          type: "too_small",
          input: 0,
        },
      ],
    });
  });

  it("serves the documentation over a real socket", async () => {
    const server = await startServer(app);
    try {
      const response = await server.fetch("/openapi/openapi.json");
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ info: { title: "Shop", version: "1.0.0" } });
    } finally {
      await server.close();
    }
  });
});
