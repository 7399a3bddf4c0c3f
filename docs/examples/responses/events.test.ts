import { testClient } from "unruffled/testing";
import { expect, it } from "vitest";
import { app, follow, publish } from "./events.ts";

it("sends the headlines missed since Last-Event-ID, then each new one", async () => {
  const client = testClient(app);
  await client.call(publish, { body: { title: "Enrolment opens on Monday" } });
  await client.call(publish, { body: { title: "The library stays open late" } });

  const response = await client.call(follow, { last_event_id: 1 });
  expect(response.headers.get("content-type")).toBe("text/event-stream");
  const events = response.events(); // typed: { id?: string; data: Headline; … }
  expect((await events.next()).value).toMatchObject({
    id: "2",
    data: { title: "The library stays open late" },
  });

  await client.call(publish, { body: { title: "Exams start in May" } });
  expect((await events.next()).value).toMatchObject({ id: "3", data: { title: "Exams start in May" } });

  response.close(); // hang up: request.signal aborts and the handler's loop ends
});
