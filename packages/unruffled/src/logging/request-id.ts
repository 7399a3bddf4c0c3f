import { randomBytes } from "../node-builtins.ts";
import { CountedIds } from "./counted-ids.ts";

// Ids a client may choose: up to 128 characters of letters, digits and `. _ : + / = @ -` (UUIDs,
// trace ids, base64). Anything else could forge log lines, so it is replaced.
const ACCEPTED_ID = /^[\w.:+/=@-]{1,128}$/;

// A counter is the cheapest unique id; the random prefix keeps processes (workers, restarts) apart.
const ids = new CountedIds(`${randomBytes(6).toString("base64url")}-`);

/**
 * The id of a request: the client's `x-request-id` when it is acceptable, else a new one
 * (`<process prefix>-<counter>`, unique within the process and unlikely to repeat across them).
 *
 * @example requestIdFrom("3b1f-42") // "3b1f-42"; requestIdFrom("bad id\n") // "Xk3vQ9aB-17"
 */
export function requestIdFrom(header: string | string[] | undefined): string {
  if (typeof header === "string" && ACCEPTED_ID.test(header)) return header;
  return ids.next();
}
