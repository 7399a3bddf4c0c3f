import { JsonResponse } from "unruffled/http";
import { endpoint, p } from "unruffled/route";
import { z } from "zod";

const Student = z.object({ id: z.int(), name: z.string(), email: z.email() });

export const mistyped = endpoint({
  returns: [p.ResponseSpec({ model: Student })],
  // @ts-expect-error `id` is a number in the model: this body matches no declared model
  handler: () => new JsonResponse({ id: "7", name: "Bob", email: "bob@example.edu" }),
});

export const withExtraFields = endpoint({
  returns: [p.ResponseSpec({ model: Student })],
  // Compiles: extra fields are allowed, and left out when the answer is written.
  handler: () => new JsonResponse({ id: 7, name: "Bob", email: "bob@example.edu", password_hash: "…" }),
});
