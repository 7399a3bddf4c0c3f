import type { z } from "zod";
import type { ValidationIssue } from "../../errors.ts";
import { type EndpointDescription, LOCATIONS, type ParamDescription } from "../description.ts";

// A value that is absent fails as invalid_type, invalid_value (enums) or invalid_union alike.
const MISSING_CODES = new Set(["invalid_type", "invalid_value", "invalid_union"]);

/**
 * Turns Zod issues into `{loc, msg, type, input}` with the names the document gives:
 * `["query", "size"]`, `["header", "x-token"]`, `["header", "X-Trace"]` (an alias as declared),
 * `["body", "student_id"]`. The description's third reader, beside the request path and the document.
 *
 * @example toValidationIssues(description, result.error.issues)[0] // { loc: ["query", "size"], msg: "Too big: …", type: "too_big", input: 500 }
 */
export function toValidationIssues(
  description: EndpointDescription,
  issues: readonly z.core.$ZodIssue[],
  jsonSource?: Buffer | string,
): ValidationIssue[] {
  const result: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const issue of issues) {
    const [paramKey, ...rest] = issue.path as (string | number)[];
    const param = description.params.find((candidate) => candidate.key === paramKey);
    const loc = param ? locOf(param, rest) : (issue.path as (string | number)[]);
    for (const entry of issuesAt(loc, issue)) {
      if (jsonSource !== undefined && entry.loc[0] === "body" && isInfinite(entry.input)) {
        entry.input = numberAsSent(jsonSource, entry.loc.slice(1)) ?? entry.input;
      }
      const key = JSON.stringify([entry.loc, entry.type, entry.msg]);
      if (seen.has(key)) continue;
      seen.add(key);
      result.push(entry);
    }
  }
  return result;
}

/** A key of a strict model's source refused beside Zod: spelt as a field's key, not its wire name. */
export interface RefusedKey {
  param: ParamDescription;
  name: string;
  input: unknown;
}

/**
 * Zod's issues with a strict model's keys refused beside it, each as the `unrecognized_keys` issue
 * Zod gives an extra key, placed after the model's own issues (the order of the validator's sources).
 *
 * @example withRefusedKeys(description, [], [{ param, name: "user_name", input: "bob" }]) // [{ code: "unrecognized_keys", keys: ["user_name"], path: ["account"], … }]
 */
export function withRefusedKeys(
  description: EndpointDescription,
  issues: readonly z.core.$ZodIssue[],
  refused: readonly RefusedKey[],
): z.core.$ZodIssue[] {
  return inSourceOrder(
    description,
    issues,
    refused.map(({ param, name, input }) => ({
      code: "unrecognized_keys",
      keys: [name],
      path: [param.key],
      // A computed key defines a property: a key named __proto__ stays a key.
      input: { [name]: input },
      message: `Unrecognized key: ${JSON.stringify(name)}`,
    })),
  );
}

/**
 * Issues with more of them placed among them, each after those of its own and earlier parameters (the
 * order of the validator's sources); every issue's path starts with its parameter's key.
 *
 * @example inSourceOrder(description, [queryIssue, laterBodyIssue], [bodyIssue]) // [queryIssue, bodyIssue, laterBodyIssue]
 */
export function inSourceOrder(
  description: EndpointDescription,
  issues: readonly z.core.$ZodIssue[],
  more: readonly z.core.$ZodIssue[],
): z.core.$ZodIssue[] {
  const order = LOCATIONS.flatMap((location) => description.byLocation[location].map((param) => param.key));
  const rank = (issue: z.core.$ZodIssue) => {
    const index = order.indexOf(issue.path[0] as string);
    return index < 0 ? order.length : index;
  };
  const merged = issues.slice();
  for (const issue of more) {
    const own = rank(issue);
    let at = merged.length;
    while (at > 0 && rank(merged[at - 1]!) > own) at--;
    merged.splice(at, 0, issue);
  }
  return merged;
}

/**
 * One Zod issue as the 422's entries at `loc`: an absent value is "Field required" (type `missing`);
 * a strict model's extra keys are one entry a key, at the key, with its value (as FastAPI's
 * `extra_forbidden`); any other issue keeps Zod's message and code. A WebSocket message's issues
 * are made here too, so that they read as a body's.
 *
 * @example issuesAt(["message"], issue) // [{ loc: ["message", "extra"], msg: 'Unrecognized key: "extra"', type: "unrecognized_keys", input: 1 }]
 */
export function issuesAt(loc: (string | number)[], issue: z.core.$ZodIssue): ValidationIssue[] {
  const input = "input" in issue ? issue.input : undefined;
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => ({
      loc: [...loc, key],
      msg: `Unrecognized key: ${JSON.stringify(key)}`,
      type: issue.code,
      input: (input as Record<string, unknown> | undefined)?.[key] ?? null,
    }));
  }
  if (MISSING_CODES.has(issue.code) && input === undefined) {
    return [{ loc, msg: "Field required", type: "missing", input: null }];
  }
  return [{ loc, msg: issue.message, type: issue.code, input: input ?? null }];
}

/**
 * Where a parameter's issue points: its source and its name as documented (a header's alias keeps its
 * capitals, as FastAPI reports it; the lower-case wire name is only for lookup), then the path inside.
 */
function locOf(param: ParamDescription, rest: (string | number)[]): (string | number)[] {
  if (param.wholeBody && param.shape !== "model") return [param.location, ...rest];
  if (param.shape !== "model") return [param.location, param.fields[0]!.documentedName, ...rest];
  if (rest.length === 0) return [param.location];
  const [key, ...deeper] = rest;
  const field = param.fields.find((candidate) => candidate.key === key);
  return [param.location, field ? field.documentedName : key!, ...deeper];
}

/** True for Infinity or -Infinity: what `JSON.parse` makes of a number past a double's range. */
export function isInfinite(value: unknown): value is number {
  return value === Number.POSITIVE_INFINITY || value === Number.NEGATIVE_INFINITY;
}

/**
 * The source text of the number at `path` in a JSON body that `JSON.parse` made infinite: a number
 * past a double's range (`1e400`) is quoted as sent, as a query's is, not as the `null` JSON would
 * write. The text is scanned again, on this error path only, with a stack of its own (a reviver
 * recurses, and `json_depth` has no ceiling); a key given twice is read as `JSON.parse` reads it, the
 * last one. Undefined where no number is at `path`.
 *
 * @example numberAsSent('{"price": 1e400}', ["price"]) // "1e400"
 */
export function numberAsSent(
  jsonSource: Buffer | string,
  path: readonly (string | number)[],
): string | undefined {
  const text = typeof jsonSource === "string" ? jsonSource : jsonSource.toString("utf8");
  // Where the scan is: one key (an array's index) a level, and whether each level is an array.
  const at: (string | number)[] = [];
  const inArray: boolean[] = [];
  let found: string | undefined;
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === "[" || char === "{") {
      inArray.push(char === "[");
      at.push(0);
      index++;
    } else if (char === "]" || char === "}") {
      inArray.pop();
      at.pop();
      index++;
    } else if (char === ",") {
      if (inArray[inArray.length - 1] === true) at[at.length - 1] = (at[at.length - 1] as number) + 1;
      index++;
    } else if (char === '"') {
      const end = stringEnd(text, index);
      // A string before a colon is a key; one elsewhere is a value, not a number.
      let next = end;
      while (next < text.length && isJsonSpace(text.charCodeAt(next))) next++;
      if (text[next] === ":") at[at.length - 1] = JSON.parse(text.slice(index, end)) as string;
      index = end;
    } else if (char === "-" || (char >= "0" && char <= "9")) {
      let end = index + 1;
      while (end < text.length && NUMBER_CHARS.test(text[end]!)) end++;
      if (samePath(at, path)) found = text.slice(index, end);
      index = end;
    } else {
      index++;
    }
  }
  return found;
}

const NUMBER_CHARS = /[0-9eE.+-]/;

/** The index just past the JSON string that opens at `start`. */
function stringEnd(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    const char = text[index]!;
    if (char === "\\") index += 2;
    else if (char === '"') return index + 1;
    else index++;
  }
  return index;
}

function isJsonSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function samePath(at: readonly (string | number)[], path: readonly (string | number)[]): boolean {
  if (at.length !== path.length) return false;
  for (let level = 0; level < at.length; level++) {
    if (String(at[level]) !== String(path[level])) return false;
  }
  return true;
}
