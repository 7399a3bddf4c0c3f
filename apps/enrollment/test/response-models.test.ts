// The enrollment API's answers go out through their models' compiled serializers: for every value a
// model accepts, what is written is exactly JSON.stringify(model.parse(value)), and no field the
// model does not declare (a password hash on a row) is ever written.
import fc from "fast-check";
import { modelValues, UNDECLARED_VALUE } from "hostile-input/model-values";
import { compileSerializer, p, responseSerializersOf } from "unruffled/route";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  BindResponse,
  CourseListResponse,
  CourseResponse,
  CourseSeats,
  CourseSerializer,
  ErrorResponse,
  StudentListResponse,
  StudentResponse,
  StudentSerializer,
} from "../src/schemas.ts";

const MODELS: Record<string, z.ZodType> = {
  StudentSerializer,
  CourseSerializer,
  StudentListResponse,
  CourseListResponse,
  StudentResponse,
  CourseResponse,
  BindResponse,
  CourseSeats,
  ErrorResponse,
};

describe("the enrollment API's response models", () => {
  it.each(Object.entries(MODELS))("%s: compiled whole, with nothing left to Zod", (_name, model) => {
    expect(compileSerializer(model).fallbacks).toEqual([]);
  });

  it.each(Object.entries(MODELS))(
    "%s: writes JSON.stringify(model.parse(value)) for every value the model accepts",
    (_name, model) => {
      const { pick } = compileSerializer(model);
      const serializer = responseSerializersOf(
        [p.ResponseSpec({ model })],
        'endpoint "test" (GET /test)',
      )!.get(200)!;
      fc.assert(
        fc.property(modelValues(model), (value) => {
          const expected = JSON.stringify(model.parse(value));
          // The picker's own output: write() would fall back to Zod where the picker refused the value.
          expect(JSON.stringify(pick(value))).toBe(expected);
          expect(serializer.write(value)).toBe(expected);
          expect(expected).not.toContain(UNDECLARED_VALUE);
        }),
        { numRuns: 200 },
      );
    },
  );
});
