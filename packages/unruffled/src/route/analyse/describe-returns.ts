import { TypeHintRequired, ValueError } from "../../errors.ts";
import { ResponseSpec } from "../declare/response-spec.ts";
import { DeclaredAnswers } from "../serializer/declared-answers.ts";
import { isZodSchema } from "./schema-shape.ts";

/** What an endpoint answers, as its description holds it. */
export interface ReturnsDescription {
  /** One `ResponseSpec` per status code; `null` when `returns` names a response class only. */
  responses: readonly ResponseSpec[] | null;
  /** The response class named by `returns`, when it is one. */
  responseClass: Function | undefined;
  /** How the answers are written through the declared models; undefined when `returns` names a class only. */
  answers: DeclaredAnswers | undefined;
}

/**
 * Reads an endpoint's `returns` (seed rule 15: required): a response class, or a non-empty list of
 * `p.ResponseSpec` with one entry per HTTP status code and a Zod model each, whose JSON and
 * event-stream models are compiled into their serializers here, once.
 *
 * @example describeReturns([p.ResponseSpec({ model: Item })], label) // { responses: [spec], responseClass: undefined }
 */
export function describeReturns(returns: unknown, label: string): ReturnsDescription {
  if (returns === undefined || returns === null) {
    throw new TypeHintRequired(
      `${label} has no returns. Declare what it answers: returns: JsonResponse, or returns: [p.ResponseSpec({ model: MyResponse })].`,
    );
  }
  if (typeof returns === "function") return { responses: null, responseClass: returns, answers: undefined };
  if (
    !Array.isArray(returns) ||
    returns.length === 0 ||
    !returns.every((entry) => entry instanceof ResponseSpec)
  ) {
    throw new ValueError(
      `${label}: returns must be a response class (JsonResponse, PlainTextResponse) or a non-empty list of p.ResponseSpec(...).`,
    );
  }
  const codes = new Set<string>();
  for (const spec of returns as ResponseSpec[]) {
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
        `${label}: two ResponseSpec entries document the status ${spec.code}; give one entry per status code.`,
      );
    }
    codes.add(spec.code);
  }
  const responses = returns as ResponseSpec[];
  return { responses, responseClass: undefined, answers: new DeclaredAnswers(responses, [], label) };
}
