import { describe, expect, it } from "vitest";
import { useApi } from "../support/api.ts";
import { dialects } from "../support/test-databases.ts";

// Regressions found by the hostile-input properties: values the request schemas let through but a
// PostgreSQL column could not hold made the database fail, and the client got code 500.
describe.each(dialects)("values no column can hold are validation failures on %s", (dialect) => {
  const api = useApi(dialect);

  it("an id past 32 bits is refused with 422, not sent to the database", async () => {
    expect(await api.post("/api/enroll/bind", { student_id: 1, course_id: 2_147_483_648 })).toEqual({
      status: 200,
      body: {
        code: 422,
        message: "Request validation failed",
        data: {
          errors: [
            {
              loc: ["body", "course_id"],
              msg: "Too big: expected number to be <=2147483647",
              type: "too_big",
              input: 2_147_483_648,
            },
          ],
        },
      },
    });
    expect(api.internalErrors).toEqual([]);
  });

  it("text with a NUL character is refused with 422, in a body and in a query", async () => {
    const created = await api.post("/api/enroll/course-create", { name: "a\u0000b", code: "C1" });
    expect(created).toEqual({
      status: 200,
      body: {
        code: 422,
        message: "Request validation failed",
        data: {
          errors: [
            {
              loc: ["body", "name"],
              msg: "Must not contain the NUL character",
              type: "custom",
              input: "a\u0000b",
            },
          ],
        },
      },
    });
    const searched = await api.get("/api/enroll/student-list?search=a%00b");
    expect(searched).toEqual({
      status: 200,
      body: {
        code: 422,
        message: "Request validation failed",
        data: {
          errors: [
            {
              loc: ["query", "search"],
              msg: "Must not contain the NUL character",
              type: "custom",
              input: "a\u0000b",
            },
          ],
        },
      },
    });
    expect(api.internalErrors).toEqual([]);
  });
});
