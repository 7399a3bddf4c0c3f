import type { z } from "zod";
import type { ValidationIssue } from "../errors.ts";
import { parseJsonBody, parseJsonText } from "../http/request.ts";
import { isInfinite, issuesAt, numberAsSent } from "../route/resolve/validation-issues.ts";
import { infiniteNumbers, outOfRangeIssue } from "../route/wire/json-numbers.ts";

/** An inbound message after its checks: its value, or the issues to send back. */
export type InboundResult = { ok: true; value: unknown } | { ok: false; issues: ValidationIssue[] };

/**
 * Parses one text message as JSON (nested no deeper than the app's JSON limit) and validates it
 * against the route's inbound model. Issues point into the message: `["message", "text"]`. The
 * message comes as bytes from `ws`, as a string from Bun (decoded already). Where the model may pass on
 * a number nothing checks (`uncheckedNumbers`, read from the model once), one past a double's range
 * (`1e400`, Infinity once parsed) is refused as an HTTP body's is, quoted as sent; so is one that the
 * model refuses itself (`z.number()`), read again from the message on this error path only.
 *
 * @example readInbound(Buffer.from('{"type":"say"}'), description.inbound, 64) // { ok: false, issues: [{ loc: ["message", "text"], … }] }
 */
export function readInbound(
  message: Buffer | string,
  model: z.ZodType,
  jsonDepth: number,
  uncheckedNumbers = false,
): InboundResult {
  let json: unknown;
  try {
    json =
      typeof message === "string" ? parseJsonText(message, jsonDepth) : parseJsonBody(message, jsonDepth);
  } catch (error) {
    return {
      ok: false,
      issues: [
        {
          loc: ["message"],
          msg: (error as Error).message.replace("JSON body", "JSON message"),
          type: "json_invalid",
          input: null,
        },
      ],
    };
  }
  const result = model.safeParse(json, { reportInput: true });
  if (result.success) {
    const outOfRange = uncheckedNumbers ? infiniteNumbers(result.data) : [];
    if (outOfRange.length === 0) return { ok: true, value: result.data };
    return {
      ok: false,
      issues: outOfRange.flatMap(({ path, value }) =>
        issuesAt(["message", ...path], outOfRangeIssue(path, value)).map((issue) => ({
          ...issue,
          input: numberAsSent(message, path) ?? issue.input,
        })),
      ),
    };
  }
  const issues = result.error.issues.flatMap((issue) =>
    issuesAt(["message", ...(issue.path as (string | number)[])], issue),
  );
  // Zod's z.number() refuses Infinity, which JSON writes as null: quote it as sent, as HTTP does.
  for (const issue of issues) {
    if (isInfinite(issue.input)) issue.input = numberAsSent(message, issue.loc.slice(1)) ?? issue.input;
  }
  return { ok: false, issues };
}
