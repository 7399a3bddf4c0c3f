import { describe, expect, it } from "vitest";
import { bindCourse, unbindCourse } from "../src/endpoints.ts";
import { courseLive } from "../src/sockets.ts";
import { useApi } from "./support/api.ts";
import { createStudents, createTestCourse } from "./support/fixtures.ts";
import { dialects } from "./support/test-databases.ts";

describe.each(dialects)("course-live on %s", (dialect) => {
  const api = useApi(dialect);
  const seats = (courseId: number, enrolled: number, max = 3) => ({
    type: "seats",
    seats: { course_id: courseId, enrolled, max_students: max, seats_left: max - enrolled },
  });

  it("sends a followed course's seats now and after every bind and unbind, until unfollowed", async () => {
    const [first, second] = await createStudents(api.db(), 2);
    const courseId = await createTestCourse(api.db(), { max_students: 3 });
    const client = api.client();
    const socket = await client.websocket(courseLive);
    await socket.send({ type: "follow", course_id: courseId });
    expect(await socket.receive()).toEqual(seats(courseId, 0));
    await client.call(bindCourse, { body: { student_id: first!, course_id: courseId } });
    expect(await socket.receive()).toEqual(seats(courseId, 1));
    await client.call(bindCourse, { body: { student_id: second!, course_id: courseId } });
    expect(await socket.receive()).toEqual(seats(courseId, 2));
    await client.call(unbindCourse, { body: { student_id: first!, course_id: courseId } });
    expect(await socket.receive()).toEqual(seats(courseId, 1));
    await socket.send({ type: "unfollow", course_id: courseId });
    const other = await createTestCourse(api.db(), { max_students: 5 });
    // Once unfollowed, the bind below is not told: the next message is the other course's.
    await client.call(bindCourse, { body: { student_id: first!, course_id: courseId } });
    await socket.send({ type: "follow", course_id: other });
    expect(await socket.receive()).toEqual(seats(other, 0, 5));
    expect(await socket.close()).toEqual({ code: 1000, reason: "" });
  });

  it("follows several courses on one socket, and says when a course is unknown", async () => {
    const [student] = await createStudents(api.db(), 1);
    const a = await createTestCourse(api.db(), { max_students: 2 });
    const b = await createTestCourse(api.db(), { max_students: 4 });
    const socket = await api.client().websocket(courseLive);
    await socket.send({ type: "follow", course_id: a });
    expect(await socket.receive()).toEqual(seats(a, 0, 2));
    await socket.send({ type: "follow", course_id: b });
    expect(await socket.receive()).toEqual(seats(b, 0, 4));
    await api.client().call(bindCourse, { body: { student_id: student!, course_id: b } });
    expect(await socket.receive()).toEqual(seats(b, 1, 4));
    await socket.send({ type: "follow", course_id: 999_999 });
    expect(await socket.receive()).toEqual({ type: "unknown_course", course_id: 999_999 });
    await socket.close();
  });

  it("is documented in the AsyncAPI document", async () => {
    const { generateAsyncApi } = await import("unruffled/websocket");
    const document = generateAsyncApi(api.client().app) as any;
    expect(document.channels.course_live.address).toBe("/api/enroll/course-live");
    expect(Object.keys(document.channels.course_live.messages)).toEqual([
      "CourseLiveIn",
      "CourseLiveOut",
      "MessageValidationError",
    ]);
    expect(document.components.schemas.CourseSeats).toEqual(
      api.client().app.openapi().components!.schemas!.CourseSeats,
    );
  });
});
