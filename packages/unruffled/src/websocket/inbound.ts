import type { z } from "zod";
import type { ValidationIssue } from "../errors.ts";
import { parseJsonBody, parseJsonText } from "../http/request.ts";
import { issuesAt, numberAsSent } from "../route/resolve/validation-issues.ts";
import { infiniteNumbers, outOfRangeIssue } from "../route/wire/json-numbers.ts";

/** An inbound message after its checks: its value, or the issues to send back. */
export type InboundResult = { ok: true; value: unknown } | { ok: false; issues: ValidationIssue[] };

/**
 * Parses one text message as JSON (nested no deeper than the app's JSON limit) and validates it
 * against the route's inbound model. Issues point into the message: `["message", "text"]`. The
 * message comes as bytes from `ws`, as a string from Bun (decoded already). Where the model may pass on
 * a number nothing checks (`uncheckedNumbers`, read from the model once), one past a double's range
 * (`1e400`, Infinity once parsed) is refused as an HTTP body's is, quoted as sent.
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
  return {
    ok: false,
    issues: result.error.issues.flatMap((issue) =>
      issuesAt(["message", ...(issue.path as (string | number)[])], issue),
    ),
  };
}
