import type { z } from "zod";
import type { ValidationIssue } from "../errors.ts";
import { parseJsonBody, parseJsonText } from "../http/request.ts";

/** An inbound message after its checks: its value, or the issues to send back. */
export type InboundResult = { ok: true; value: unknown } | { ok: false; issues: ValidationIssue[] };

// A value that is absent fails as invalid_type, invalid_value (enums) or invalid_union alike.
const MISSING_CODES = new Set(["invalid_type", "invalid_value", "invalid_union"]);

/**
 * Parses one text message as JSON (nested no deeper than the app's JSON limit) and validates it
 * against the route's inbound model. Issues point into the message: `["message", "text"]`. The
 * message comes as bytes from `ws`, as a string from Bun (decoded already).
 *
 * @example readInbound(Buffer.from('{"type":"say"}'), description.inbound, 64) // { ok: false, issues: [{ loc: ["message", "text"], … }] }
 */
export function readInbound(message: Buffer | string, model: z.ZodType, jsonDepth: number): InboundResult {
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
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, issues: result.error.issues.map(toIssue) };
}

function toIssue(issue: z.core.$ZodIssue): ValidationIssue {
  const loc = ["message", ...(issue.path as (string | number)[])];
  const input = "input" in issue ? issue.input : undefined;
  if (MISSING_CODES.has(issue.code) && input === undefined) {
    return { loc, msg: "Field required", type: "missing", input: null };
  }
  return { loc, msg: issue.message, type: issue.code, input: input ?? null };
}
