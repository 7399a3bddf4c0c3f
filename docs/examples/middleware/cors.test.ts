import { gunzipSync } from "node:zlib";
import { testClient } from "unruffled/testing";
import { expect, it } from "vitest";
import { app } from "./cors.ts";

it("compresses a long answer for a client that accepts gzip", async () => {
  const response = await testClient(app).get("/products", {
    query: { repeat: 50 },
    headers: { "accept-encoding": "gzip, br;q=0.5" },
  });
  expect(response.headers.get("content-encoding")).toBe("gzip");
  expect(response.headers.get("vary")).toBe("Accept-Encoding, Origin");
  expect(JSON.parse(gunzipSync(response.body).toString())).toHaveLength(100);
});
