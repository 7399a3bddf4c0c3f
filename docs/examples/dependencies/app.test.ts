import { dependency } from "unruffled/route";
import { testClient } from "unruffled/testing";
import { expect, it } from "vitest";
import { app, journal, paging } from "./app.ts";

// #region override
it("lists the second book when paging is replaced by one of size 1", async () => {
  const onePerPage = dependency({ resolve: () => ({ offset: 1, limit: 1 }) });
  const client = testClient(app, { overrides: [[paging, onePerPage]] });
  const response = await client.get("/books");
  expect(response.json()).toEqual([{ id: 2, title: "Book 2" }]);
});
// #endregion

// #region unit-of-work
it("commits a note once it is answered, and rolls back a duplicate", async () => {
  const client = testClient(app);
  const added = await client.post("/notes", { json: { text: "buy milk" } });
  expect([added.status, added.json()]).toEqual([202, { queued: "buy milk" }]);
  expect(journal).toEqual(["buy milk"]);
  const duplicate = await client.post("/notes", { json: { text: "buy milk" } });
  expect([duplicate.status, duplicate.json()]).toEqual([
    409,
    { detail: '"buy milk" is already in the journal' },
  ]);
  expect(journal).toEqual(["buy milk"]);
});
// #endregion
