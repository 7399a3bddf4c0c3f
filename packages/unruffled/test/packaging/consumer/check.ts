// Calls the app through `unruffled/testing` and prints what came back as one JSON line. The typed
// calls and the @ts-expect-error lines only type-check when the shipped declarations carry the
// parameter and response types through.
import { testClient } from "unruffled/testing";
import { app, attachFile, getNote } from "./app.ts";

const client = testClient(app);

const note = await client.call(getNote, { note_id: 7, paging: { page: 2 } });
const title: string = note.json().title;
// @ts-expect-error note_id is a number
await client.call(getNote, { note_id: "seven" });

const invalid = await client.get("/notes/0", { query: { size: 99 } });
const created = await client.post("/notes", { json: { title: "Groceries", tags: ["home"] } });
const uploaded = await client.call(attachFile, {
  note_id: 7,
  file: { filename: "list.txt", content: "milk, eggs", contentType: "text/plain" },
  caption: "The list",
});

console.log(
  JSON.stringify({
    note: { status: note.status, title, body: note.json() },
    invalid: { status: invalid.status, body: invalid.json() },
    created: { status: created.status, body: created.json() },
    uploaded: { status: uploaded.status, body: uploaded.json() },
  }),
);
