// What a program (another service, a script) writes with the generated client. The page shows it
// whole, region by region; its test runs it against the example app and reads what it prints.
// #region create
import { createClient } from "./client.generated.ts";

const client = createClient({
  baseUrl: process.env.SHOP_URL ?? "http://127.0.0.1:8000", // "" in a page: the page's own origin
  headers: { authorization: "Bearer staff-token" }, // sent with every call
});
// #endregion

// #region call
const page = await client.list_items({ page: 1, tag: ["kitchen", "sale"] }); // ?page=1&tag=kitchen&tag=sale
if (page.kind === "documented" && page.status === 200) {
  for (const item of page.body) console.log(`${item.id} ${item.name} ${item.added}`); // added: a string
}
// #endregion

// #region branches
const added = await client.add_item({ item: { name: "" } });
switch (added.kind) {
  case "documented":
    if (added.status === 201) console.log(`added ${added.body.id}`);
    else if (added.status === 422) console.log(`422 at ${added.body.detail[0]?.loc.join(".")}`);
    else console.log(`${added.status}: ${added.body.detail}`); // 401, 413, 415
    break;
  case "undocumented": // a status the operation does not document; body: unknown
  case "decode-failure": // a documented status whose body is not what the document says
    console.log(`${added.kind} ${added.status}`);
    break;
  case "network-failure": // no answer: refused, reset, or aborted by the signal
    console.log(added.message);
}
// #endregion

// #region upload
const picture = new File([new Uint8Array(512)], "kettle.png", { type: "image/png" });
const uploaded = await client.upload_picture({ item_id: 1, picture, caption: "Front" });
if (uploaded.kind === "documented" && uploaded.status === 200) console.log(`${uploaded.body.bytes} bytes`);
// #endregion

// #region events
const abort = new AbortController();
const stock = await client.stock({ item_id: 2 }, { signal: abort.signal });
if (stock.kind === "documented" && stock.contentType === "text/event-stream") {
  for await (const event of stock.events) {
    console.log(`left: ${event.data.left}`);
    if (event.data.left <= 2) abort.abort(); // ends the loop, and the request
  }
}
// #endregion
