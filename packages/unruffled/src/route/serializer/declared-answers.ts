import { z } from "zod";
import { ResponseValidationError } from "../../errors.ts";
import { statusOfClass } from "../../http/redirect-response.ts";
import type { ResponseSpec } from "../declare/response-spec.ts";
import {
  modelSerializer,
  type ResponseSerializer,
  type ResponseSerializers,
  responseFormatOf,
} from "./response-serializers.ts";

type Format = "json" | "events";

/**
 * How the answers of an endpoint that declares `ResponseSpec`s are written, settled when the route
 * is built: the serializer of each declared status, the status of an answer built without one, and
 * what a success or redirect answer of an undeclared status goes through, so that it never sends a
 * field that no declared success model names.
 */
export class DeclaredAnswers {
  /** The compiled writer of each status with a JSON or event-stream model. */
  readonly byStatus: ResponseSerializers;
  /** The status of an answer built without one: the one declared success status, when it is not 200. */
  readonly defaultStatus: number | undefined;
  /** The model of each format that a success answer of an undeclared status goes through. */
  private readonly successModels: Readonly<Record<Format, z.ZodType | undefined>>;
  /** True when `returns` also names a response class: a success answer without a model goes as it is. */
  private readonly unmodelledSuccess: boolean;
  private readonly label: string;
  /** The writers made for undeclared success statuses, each once, when first needed. */
  private readonly undeclared = new Map<string, ResponseSerializer>();

  constructor(responses: readonly ResponseSpec[], responseClasses: readonly Function[], label: string) {
    this.label = label;
    this.unmodelledSuccess = responseClasses.length > 0;
    const serializers = new Map<number, ResponseSerializer>();
    const success: Record<Format, z.ZodType[]> = { json: [], events: [] };
    const successCodes = new Set<number>(responseClasses.map(statusOfClass).filter(isSuccess));
    for (const spec of responses) {
      const status = Number(spec.code);
      const format = responseFormatOf(spec.contentType);
      // The declarations bind models by Zod's core type (cheap to check); every model is a classic schema.
      const model = spec.model as z.ZodType;
      if (format !== undefined)
        serializers.set(status, modelSerializer(model, status, format, label, spec.omissions));
      if (isSuccess(status)) {
        successCodes.add(status);
        if (format !== undefined) success[format].push(model);
      }
    }
    this.byStatus = serializers;
    const [only] = successCodes;
    this.defaultStatus = successCodes.size === 1 && only !== 200 ? only : undefined;
    this.successModels = { json: either(success.json), events: either(success.events) };
  }

  /**
   * The writer of a success or redirect answer (2xx, 3xx) whose status declares no model of its
   * format: every declared success model of that format at once (a union: Zod keeps the fields of the first that accepts
   * the value), or, where only the other format is declared, that one (the caller refuses the
   * mismatch); undefined for an error status, or where `returns` names a response class. Without
   * any success model such a body is refused: nothing says which of its fields may go out.
   */
  undeclaredSuccess(status: number, format: Format): ResponseSerializer | undefined {
    // A response class declares the answers no model covers: they go as the handler wrote them.
    if (isError(status) || this.unmodelledSuccess) return undefined;
    const other: Format = format === "json" ? "events" : "json";
    const chosen: Format | undefined =
      this.successModels[format] !== undefined
        ? format
        : this.successModels[other] !== undefined
          ? other
          : undefined;
    if (chosen === undefined) {
      throw new ResponseValidationError(
        this.label,
        status,
        "",
        `${format === "json" ? "a JSON body" : "an event stream"}, but the endpoint declares no model for a success status; declare one (p.ResponseSpec({ code: "${status}", model })) or name a response class in returns`,
      );
    }
    const key = `${chosen} ${status}`;
    let serializer = this.undeclared.get(key);
    if (serializer === undefined) {
      serializer = modelSerializer(this.successModels[chosen]!, status, chosen, this.label);
      this.undeclared.set(key, serializer);
    }
    return serializer;
  }
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/**
 * An error status (4xx, 5xx): its body, when the endpoint declares no model for it, goes out as the
 * handler wrote it. Any other (2xx, 3xx) goes through the success models: a redirect's JSON body is
 * data the endpoint sends, and nothing declared says which of its fields may leave.
 */
function isError(status: number): boolean {
  return status >= 400;
}

/** One model, or a union of several (made once, when the route is built). */
function either(models: z.ZodType[]): z.ZodType | undefined {
  if (models.length <= 1) return models[0];
  return z.union(models as [z.ZodType, z.ZodType, ...z.ZodType[]]);
}
