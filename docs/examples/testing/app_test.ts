import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { startServer, testClient } from "unruffled/testing";
import { app } from "../getting-started/app.ts";

const client = testClient(app);

describe("the shop", () => {
  it("says hello", async () => {
    const response = await client.get("/hello", { query: { name: "Ann" } });
    assert.deepEqual([response.status, response.text], [200, "Hello, Ann!"]);
  });

  it("refuses an item id below 1", async () => {
    const response = await client.get("/items/0");
    assert.equal(response.status, 422);
    assert.deepEqual(response.json(), {
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
      assert.equal(response.status, 200);
      const document = (await response.json()) as { info: { title: string; version: string } };
      assert.deepEqual(document.info, { title: "Shop", version: "1.0.0" });
    } finally {
      await server.close();
    }
  });
});
