import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const Account = z.object({ id: z.int(), balance_cents: z.bigint() });

const getAccount = endpoint({
  params: { account_id: p.Path(z.int()) },
  returns: [p.ResponseSpec({ model: Account })],
  handler: (_request, { account_id }) => new JsonResponse({ id: account_id, balance_cents: 1_250n }),
});

export const app = createApp({
  routes: [path("/accounts/{account_id}", { endpoint: getAccount, name: "get_account" })],
});
