import { z } from "zod";
import { ResponseValidationError, ValueError } from "../../errors.ts";
import type { ResponseSpec } from "../declare/response-spec.ts";
import { NO_OMISSIONS, type Omissions } from "../declare/response-spec.ts";
import { type CompiledSerializer, compileSerializer, WRONG_KIND } from "./compile-serializer.ts";
import { issuePath } from "./issue-path.ts";

/**
 * How the answer of one status is written: through its `ResponseSpec` model, compiled when the route
 * is built. Both writers throw `ResponseValidationError` (answered with 500) naming the endpoint,
 * the status and the field.
 */
export interface ResponseSerializer {
  /** How errors name the endpoint: `endpoint "list_students" (GET /api/enroll/student-list)`. */
  endpoint: string;
  status: number;
  /** `json`: the whole body; `events`: the `data` of each server-sent event; `messages`: each WebSocket message. */
  format: "json" | "events" | "messages";
  model: z.ZodType;
  /** The compiled picker, then `JSON.stringify`: only declared fields go out. */
  write(value: unknown): string;
  /** Zod validates the value first (strict mode), then its parsed value is written. */
  writeChecked(value: unknown): string;
  /** The parts of the model Zod parses instead of the picker, for the build-time log. */
  fallbacks: readonly string[];
}

/** The serializers of an endpoint, by status. */
export type ResponseSerializers = ReadonlyMap<number, ResponseSerializer>;

/**
 * A serializer for each status whose `ResponseSpec` has a JSON body (`application/json`, `…+json`)
 * or is an event stream (`text/event-stream`, whose model is each event's data); undefined when
 * there is none, so routes without models pay nothing.
 *
 * @example responseSerializersOf([p.ResponseSpec({ model: Item })], label)?.get(200)?.write(item)
 */
export function responseSerializersOf(
  responses: readonly ResponseSpec[] | null,
  label: string,
): ResponseSerializers | undefined {
  const serializers = new Map<number, ResponseSerializer>();
  for (const spec of responses ?? []) {
    const format = responseFormatOf(spec.contentType);
    if (format === undefined) continue;
    const status = Number(spec.code);
    // The declarations bind models by Zod's core type (cheap to check); every model is a classic schema.
    serializers.set(status, modelSerializer(spec.model as z.ZodType, status, format, label, spec.omissions));
  }
  return serializers.size === 0 ? undefined : serializers;
}

// How the log says what went wrong, for a body, an event and a WebSocket message.
const PHRASES = {
  json: {
    refused: "a body that its model refuses",
    notJson: "a body that is not JSON",
    unchecked: "a body that could not be checked",
    unwritten: "a body that could not be written",
  },
  events: {
    refused: "an event whose data its model refuses",
    notJson: "an event whose data is not JSON",
    unchecked: "an event whose data could not be checked",
    unwritten: "an event whose data could not be written",
  },
  messages: {
    refused: "a message that its model refuses",
    notJson: "a message that is not JSON",
    unchecked: "a message that could not be checked",
    unwritten: "a message that could not be written",
  },
};

/** How a media type's body is written through its model: `json`, `events`, or not at all. */
export function responseFormatOf(contentType: string): "json" | "events" | undefined {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (type === "application/json" || type.endsWith("+json")) return "json";
  if (type === "text/event-stream") return "events";
  return undefined;
}

/** The writer of one status's body (or events' data) through `model`, compiled once. */
export function modelSerializer(
  model: z.ZodType,
  status: number,
  format: "json" | "events" | "messages",
  label: string,
  omissions: Omissions = NO_OMISSIONS,
): ResponseSerializer {
  const compiled: CompiledSerializer = compileSerializer(model, omissions);
  const [nullable] = compiled.requiredNullable;
  if (nullable !== undefined) {
    const field = nullable.replace(/^\./, "");
    throw new ValueError(
      `${label}: the ResponseSpec of status ${status} leaves out null fields (exclude_none), but the field ${field} is required and may be null: an answer without it would not fit the model. Make it optional (.nullish()) or drop exclude_none.`,
    );
  }
  const omits = omissions !== NO_OMISSIONS;
  const what = PHRASES[format];
  let validator: z.ZodType | undefined;
  const stringify = (value: unknown): string => {
    try {
      return JSON.stringify(value) ?? "null";
    } catch (error) {
      // A BigInt or a cycle is a TypeError; a RangeError is JSON too long for one string, or too deep.
      const phrase = error instanceof RangeError ? what.unwritten : what.notJson;
      throw new ResponseValidationError(label, status, "", `${phrase}: ${message(error)}`, { cause: error });
    }
  };
  const writeChecked = (value: unknown): string => {
    // Zod's compiled parser, made on first use: strict mode is mostly for tests and DEBUG.
    validator ??= z.compile(model);
    let result: z.ZodSafeParseResult<unknown>;
    try {
      result = validator.safeParse(value);
    } catch (error) {
      throw new ResponseValidationError(label, status, "", `${what.unchecked}: ${message(error)}`, {
        cause: error,
      });
    }
    if (!result.success) {
      const issue = result.error.issues[0]!;
      const path = issuePath(issue.path);
      throw new ResponseValidationError(
        label,
        status,
        path,
        `${what.refused}: ${path === "" ? "" : `${path}: `}${issue.message}`,
      );
    }
    // Zod's parse keeps nulls and defaults: with omissions the picker writes the value Zod accepted.
    if (omits) {
      try {
        return stringify(compiled.pick(value));
      } catch (error) {
        if (error instanceof ResponseValidationError) throw error;
        // A value only the picker doubted goes out as Zod parsed it.
      }
    }
    return stringify(result.data);
  };
  const write = (value: unknown): string => {
    let picked: unknown;
    try {
      picked = compiled.pick(value);
    } catch (error) {
      if (error !== WRONG_KIND) {
        throw new ResponseValidationError(label, status, "", `${what.unwritten}: ${message(error)}`, {
          cause: error,
        });
      }
      // A value of the wrong kind: Zod says where, or (a value only the picker doubted) writes it.
      return writeChecked(value);
    }
    return stringify(picked);
  };
  return { endpoint: label, status, format, model, write, writeChecked, fallbacks: compiled.fallbacks };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
