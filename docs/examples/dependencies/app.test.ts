import { dependency } from "unruffled/route";
import { testClient } from "unruffled/testing";
import { expect, it } from "vitest";
import { app, paging } from "./app.ts";

// #region override
it("lists the second book when paging is replaced by one of size 1", async () => {
  const onePerPage = dependency({ resolve: () => ({ offset: 1, limit: 1 }) });
  const client = testClient(app, { overrides: [[paging, onePerPage]] });
  const response = await client.get("/books");
  expect(response.json()).toEqual([{ id: 2, title: "Book 2" }]);
});
// #endregion
