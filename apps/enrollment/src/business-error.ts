/** The spec's business codes: not found, conflict, rule violated. */
export type BusinessErrorCode = 404 | 409 | 422;

/**
 * An expected outcome the client caused, carrying the envelope's `code`; the HTTP layer answers
 * `{ code, message, data: null }`. Any other error is internal (500).
 * @example if (error instanceof BusinessError) return { code: error.code, message: error.message, data: null }
 */
export class BusinessError extends Error {
  readonly code: BusinessErrorCode;

  constructor(code: BusinessErrorCode, message: string) {
    super(message);
    this.name = "BusinessError";
    this.code = code;
  }
}

export const studentNotFound = (studentId: number) =>
  new BusinessError(404, `Student ${studentId} not found`);

export const courseNotFound = (courseId: number) => new BusinessError(404, `Course ${courseId} not found`);

export const alreadyEnrolled = (studentId: number, courseId: number) =>
  new BusinessError(409, `Student ${studentId} is already enrolled in course ${courseId}`);

export const notEnrolled = (studentId: number, courseId: number) =>
  new BusinessError(409, `Student ${studentId} is not enrolled in course ${courseId}`);

export const duplicateEmail = (email: string) =>
  new BusinessError(409, `A student with email "${email}" already exists`);

export const duplicateStudentNumber = (studentNumber: string) =>
  new BusinessError(409, `A student with student number "${studentNumber}" already exists`);

export const duplicateCourseCode = (code: string) =>
  new BusinessError(409, `A course with code "${code}" already exists`);

export const courseInactive = (courseId: number) =>
  new BusinessError(422, `Course ${courseId} is not active`);

export const courseFull = (courseId: number, maxStudents: number) =>
  new BusinessError(422, `Course ${courseId} is full: ${maxStudents} of ${maxStudents} seats taken`);
