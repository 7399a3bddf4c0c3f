import { p } from "unruffled/route";
import { websocket } from "unruffled/websocket";
import { BusinessError } from "./business-error.ts";
import { database } from "./dependencies.ts";
import type { EnrollRequest } from "./request.ts";
import { CourseLiveIn, CourseLiveOut } from "./schemas.ts";
import * as services from "./services.ts";

/**
 * `course-live`: one socket follows and unfollows courses and gets their seats now and after every
 * bind and unbind, made in any process (the seat changes go through `app.pubsub`: PostgreSQL
 * `LISTEN/NOTIFY` on PostgreSQL, across the workers on SQLite).
 */
export const courseLive = websocket({
  summary: "Follow courses' seats live",
  params: { db: p.Depends(database) },
  // Pages the app's CORS allows may open it too; by default only the service's own origin could.
  origins: (origin, request) => (request as EnrollRequest).allowsPage(origin),
  inbound: CourseLiveIn,
  outbound: CourseLiveOut,
  async handler(socket, { db }) {
    // One follow per course; each ends on unfollow, or when the socket closes.
    const following = new Map<number, AbortController>();
    const follow = async (courseId: number, stop: AbortController) => {
      try {
        for await (const seats of services.followSeats(db, courseId, stop.signal)) {
          await socket.send({ type: "seats", seats });
        }
      } catch (error) {
        if (!(error instanceof BusinessError)) throw error;
        following.delete(courseId);
        await socket.send({ type: "unknown_course", course_id: courseId });
      }
    };
    const running: Promise<void>[] = [];
    try {
      for await (const message of socket) {
        const current = following.get(message.course_id);
        if (message.type === "unfollow") {
          current?.abort();
          following.delete(message.course_id);
        } else if (current === undefined) {
          const stop = new AbortController();
          following.set(message.course_id, stop);
          running.push(follow(message.course_id, stop));
        }
      }
    } finally {
      for (const stop of following.values()) stop.abort();
      await Promise.all(running);
    }
  },
});
