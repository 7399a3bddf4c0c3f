import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

// #region resources
// Stand-ins for a database pool and a mail server.
let accounts: Map<string, { email: string }> | undefined;
export const outbox: string[] = [];

async function openDatabase(): Promise<void> {
  accounts = new Map(); // for instance: pool = new pg.Pool({ connectionString }); await pool.query("select 1")
}

async function closeDatabase(): Promise<void> {
  accounts = undefined; // await pool.end()
}
// #endregion

// #region sign-up
const signUp = endpoint({
  params: { email: p.Json(z.email()) },
  returns: [p.ResponseSpec({ code: "201", model: z.object({ email: z.email() }) })],
  handler(request, { email }) {
    accounts!.set(email, { email });
    // Runs once the answer is written: the client does not wait for the mail server.
    request.afterResponse(async () => {
      outbox.push(`Welcome, ${email}!`);
    });
    return new JsonResponse({ email }, { status: 201 });
  },
});
// #endregion

// #region app
export const app = createApp({
  routes: [path("/sign-up", { endpoint: signUp, methods: ["POST"] })],
  // Before the server accepts a connection, one hook after another.
  onStartup: [openDatabase],
  // After close() has let the requests in flight finish.
  onClose: closeDatabase,
});
// #endregion
