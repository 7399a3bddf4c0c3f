import { createApp } from "unruffled";
import { PlainTextResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";

const menu = endpoint({
  returns: PlainTextResponse,
  handler: () => new PlainTextResponse("Flan, 5 €"),
});

// A slug cut to 15 UTF-16 units: the cut falls inside 🍮, whose two halves make one character.
const slug = "crème-caramel-🍮".slice(0, 15);

export const app = createApp({
  routes: [path(`/desserts/${slug}`, { endpoint: menu, name: "flan" })],
});
