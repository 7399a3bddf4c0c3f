import { createApp, HttpError } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { dependency, endpoint, p, path } from "unruffled/route";
import { z } from "zod";

class UniqueViolation extends Error {}

// A table with a unique email, as a database would keep it.
const users = new Map([["ann@example.edu", { id: 1, email: "ann@example.edu" }]]);

// #region session
const session = dependency({
  async *resolve() {
    const inserts: { id: number; email: string }[] = [];
    const insert = (email: string) => {
      if (users.has(email) || inserts.some((row) => row.email === email)) throw new UniqueViolation(email);
      const row = { id: users.size + inserts.length + 1, email };
      inserts.push(row);
      return row;
    };
    try {
      yield { insert };
      for (const row of inserts) users.set(row.email, row); // commit
    } catch (error) {
      inserts.length = 0; // roll back
      if (error instanceof UniqueViolation) throw new HttpError(409, "That email is already registered");
      throw error;
    }
  },
});

// Ends as soon as the handler returns: the row is committed before the client hears "created".
const transaction = dependency({
  scope: "function",
  params: { db: p.Depends(session) },
  *resolve(_request, { db }) {
    yield db;
  },
});

const register = endpoint({
  params: { email: p.Json(z.email()), db: p.Depends(transaction) },
  returns: [p.ResponseSpec({ code: "201", model: z.object({ id: z.int(), email: z.email() }) })],
  handler: (_request, { email, db }) => new JsonResponse(db.insert(email)),
});
// #endregion

export const app = createApp({ routes: [path("/users", { endpoint: register, methods: ["POST"] })] });
