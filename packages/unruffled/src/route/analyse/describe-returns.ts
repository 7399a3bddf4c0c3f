import { TypeHintRequired, ValueError } from "../../errors.ts";
import { statusOfClass } from "../../http/redirect-response.ts";
import { HttpResponse } from "../../http/response.ts";
import { ResponseSpec } from "../declare/response-spec.ts";
import { DeclaredAnswers } from "../serializer/declared-answers.ts";
import { notCarriedByJson } from "./json-carriage.ts";
import { isZodSchema } from "./schema-shape.ts";

/** What an endpoint answers, as its description holds it. */
export interface ReturnsDescription {
  /** One `ResponseSpec` per status code; empty when `returns` names a response class only. */
  responses: readonly ResponseSpec[];
  /** The response classes named by `returns`, alone or in its list; each documents the answer of its status (`statusOfClass`). */
  responseClasses: readonly Function[];
  /** How the answers are written through the declared models; undefined when `returns` names a class only. */
  answers: DeclaredAnswers | undefined;
}

/**
 * Reads an endpoint's `returns` (seed rule 15: required): a response class, or a non-empty list of
 * `p.ResponseSpec` (one per HTTP status code, a Zod model each) and response classes (each
 * documents the 200 answer of its kind), whose JSON and event-stream models are compiled into their
 * serializers here, once.
 *
 * @example describeReturns([HttpResponse, p.ResponseSpec({ model: NotFound, code: "404" })], label)
 */
export function describeReturns(returns: unknown, label: string): ReturnsDescription {
  if (returns === undefined || returns === null) {
    throw new TypeHintRequired(
      `${label} has no returns. Declare what it answers: returns: JsonResponse, or returns: [p.ResponseSpec({ model: MyResponse })].`,
    );
  }
  if (isResponseClass(returns)) return { responses: [], responseClasses: [returns], answers: undefined };
  if (
    !Array.isArray(returns) ||
    returns.length === 0 ||
    !returns.every((entry) => entry instanceof ResponseSpec || isResponseClass(entry))
  ) {
    throw new ValueError(
      `${label}: returns must be a response class (JsonResponse, PlainTextResponse) or a non-empty list of p.ResponseSpec(...) and response classes.`,
    );
  }
  const responses = returns.filter((entry) => entry instanceof ResponseSpec) as ResponseSpec[];
  const responseClasses = returns.filter(isResponseClass);
  const classCodes = new Set(responseClasses.map((responseClass) => String(statusOfClass(responseClass))));
  const codes = new Set<string>(classCodes);
  for (const spec of responses) {
    if (!/^[1-5]\d\d$/.test(spec.code)) {
      throw new ValueError(
        `${label}: the ResponseSpec code "${spec.code}" is not an HTTP status code such as "200".`,
      );
    }
    if (!isZodSchema(spec.model)) {
      throw new TypeHintRequired(
        `${label}: a ResponseSpec (code ${spec.code}) has no model; give a Zod schema: p.ResponseSpec({ model: MyResponse }).`,
      );
    }
    if (codes.has(spec.code)) {
      throw new ValueError(
        classCodes.has(spec.code)
          ? `${label}: a response class in returns documents the status ${spec.code}, and a ResponseSpec documents ${spec.code} too; give the class or the ResponseSpec.`
          : `${label}: two ResponseSpec entries document the status ${spec.code}; give one entry per status code.`,
      );
    }
    codes.add(spec.code);
    const notCarried = notCarriedByJson(spec.model, "answer");
    if (notCarried !== undefined) {
      const part = notCarried.path === "" ? "the model" : `the field "${notCarried.path}"`;
      throw new ValueError(
        `${label}: the model of its ${spec.code} answer cannot be written as JSON: ${part} is a ${notCarried.type}; declare ${notCarried.instead}.`,
      );
    }
  }
  return { responses, responseClasses, answers: new DeclaredAnswers(responses, responseClasses, label) };
}

/** `HttpResponse` or a class made from it (`JsonResponse`, `PlainTextResponse`, an app's own). */
function isResponseClass(value: unknown): value is Function {
  return typeof value === "function" && (value === HttpResponse || value.prototype instanceof HttpResponse);
}
