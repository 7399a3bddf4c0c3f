import { waitFor } from "process-support";
import { readEvents } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { bindCourse, courseEvents, unbindCourse } from "../src/endpoints.ts";
import { useApi } from "./support/api.ts";
import { createStudents, createTestCourse } from "./support/fixtures.ts";
import { dialects } from "./support/test-databases.ts";

describe.each(dialects)("a course's event stream on %s", (dialect) => {
  const api = useApi(dialect);

  it("sends the course's seats now and after every bind and unbind", async () => {
    const [first, second] = await createStudents(api.db(), 2);
    const courseId = await createTestCourse(api.db(), { max_students: 3 });
    const client = api.client();
    const response = await client.call(courseEvents, { course_id: courseId });
    expect([response.status, response.headers.get("content-type")]).toEqual([200, "text/event-stream"]);
    const events = response.events();
    const next = async () => (await events.next()).value?.data;
    const seats = (enrolled: number) => ({
      course_id: courseId,
      enrolled,
      max_students: 3,
      seats_left: 3 - enrolled,
    });
    expect(await next()).toEqual(seats(0));
    await client.call(bindCourse, { body: { student_id: first!, course_id: courseId } });
    expect(await next()).toEqual(seats(1));
    await client.call(bindCourse, { body: { student_id: second!, course_id: courseId } });
    expect(await next()).toEqual(seats(2));
    await client.call(unbindCourse, { body: { student_id: first!, course_id: courseId } });
    expect(await next()).toEqual(seats(1));
    response.close();
    await waitFor("the stream to stop following", () =>
      api.db().seatChanges.followers() === 0 ? true : undefined,
    );
  });

  it("numbers its events; a client that reconnects with Last-Event-ID gets the current state at once", async () => {
    const [first] = await createStudents(api.db(), 1);
    const courseId = await createTestCourse(api.db(), { max_students: 3 });
    const client = api.client();
    const response = await client.call(courseEvents, { course_id: courseId });
    const events = response.events();
    expect((await events.next()).value).toEqual({
      id: "1",
      data: { course_id: courseId, enrolled: 0, max_students: 3, seats_left: 3 },
    });
    await client.call(bindCourse, { body: { student_id: first!, course_id: courseId } });
    expect((await events.next()).value).toEqual({
      id: "2",
      data: { course_id: courseId, enrolled: 1, max_students: 3, seats_left: 2 },
    });
    response.close();

    // The client missed nothing it needs: the count is a state, sent at once on reconnection.
    const again = await client.call(courseEvents, { course_id: courseId, last_event_id: "2" });
    expect((await again.events().next()).value).toEqual({
      id: "3",
      data: { course_id: courseId, enrolled: 1, max_students: 3, seats_left: 2 },
    });
    again.close();
    // An id the service did not give starts the numbering over.
    const foreign = await client.call(courseEvents, { course_id: courseId, last_event_id: "abc" });
    expect((await foreign.events().next()).value?.id).toBe("1");
    foreign.close();
  });

  it("answers an unknown course with the 404 envelope, and a bad id with the 422 envelope", async () => {
    expect(await api.get("/api/enroll/course-events?course_id=99")).toEqual({
      status: 200,
      body: { code: 404, message: "Course 99 not found", data: null },
    });
    expect(await api.get("/api/enroll/course-events?course_id=0")).toMatchObject({
      status: 200,
      body: { code: 422, message: "Request validation failed" },
    });
  });

  it("leaves no follower behind when clients hang up over HTTP", async () => {
    const courseId = await createTestCourse(api.db());
    const server = await api.http();
    const aborts = Array.from({ length: 20 }, () => new AbortController());
    const responses = await Promise.all(
      aborts.map((abort) =>
        server.fetch(`/api/enroll/course-events?course_id=${courseId}`, { signal: abort.signal }),
      ),
    );
    for (const response of responses) {
      // Leaving the loop must not cancel the body: that would hang up already.
      for await (const event of readEvents(response.body!.values({ preventCancel: true }))) {
        expect(event.data).toEqual({ course_id: courseId, enrolled: 0, max_students: 50, seats_left: 50 });
        break;
      }
    }
    expect(api.db().seatChanges.followers()).toBe(20);
    for (const abort of aborts) abort.abort();
    await waitFor("every stream to stop following", () =>
      api.db().seatChanges.followers() === 0 ? true : undefined,
    );
  });
});
