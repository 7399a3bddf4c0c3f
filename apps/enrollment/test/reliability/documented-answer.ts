import { expect } from "vitest";
import type { z } from "zod";
import {
  BindResponse,
  CourseListResponse,
  CourseResponse,
  ErrorResponse,
  StudentListResponse,
  StudentResponse,
} from "../../src/schemas.ts";

/** Each route's documented success model (its ResponseSpec), by path. */
export const successModels: Record<string, z.ZodType> = {
  "/api/enroll/student-list": StudentListResponse,
  "/api/enroll/course-list": CourseListResponse,
  "/api/enroll/bind": BindResponse,
  "/api/enroll/unbind": BindResponse,
  "/api/enroll/student-create": StudentResponse,
  "/api/enroll/course-create": CourseResponse,
};

// The spec's failure codes a client can cause; 500 is never one of them.
const CLIENT_CODES = [400, 404, 405, 409, 413, 422];

/**
 * Asserts an answer under /api/enroll follows the spec: HTTP 200, a JSON envelope that fits the
 * route's success model when `code` is 0 and `ErrorResponse` with a client code otherwise.
 * Returns the envelope's code.
 */
export function expectDocumentedAnswer(path: string, status: number, text: string): number {
  expect(status, text).toBe(200);
  const body = JSON.parse(text) as { code: unknown };
  if (body.code === 0) {
    const model = successModels[path];
    expect(model, `a success on ${path}, which has no success model`).toBeDefined();
    const checked = model!.safeParse(body);
    expect(checked.success, `${text} does not fit the success model of ${path}`).toBe(true);
    return 0;
  }
  const checked = ErrorResponse.safeParse(body);
  expect(checked.success, `${text} does not fit ErrorResponse`).toBe(true);
  expect(CLIENT_CODES, text).toContain(body.code);
  return body.code as number;
}
