import type { z } from "zod";
import type { PubSub } from "../pubsub/pubsub.ts";
import type { ModelInput } from "../route/declare/model-types.ts";
import type { BuiltWebSocketRoute } from "./built-route.ts";
import type { WebSocketDefinition } from "./declare.ts";

/** What `publish()` needs of an app: its broker and its WebSocket routes. */
export interface PublishingApp {
  readonly pubsub: PubSub;
  readonly websocketRoutes: readonly BuiltWebSocketRoute[];
}

/**
 * Publishes one outbound message of `route` on `topic`: written through the route's outbound model
 * once (undeclared fields dropped; under `RESPONSES.validate: "strict"`, checked first), then sent by `app.pubsub` to every socket subscribed to the
 * topic, in every process that shares the broker, once each.
 *
 * @example await publish(app, courseLive, `course:${id}`, { type: "seats", course_id: id, seats_left: 3 });
 */
export async function publish<Out extends z.core.SomeType>(
  app: PublishingApp,
  route: WebSocketDefinition<any, any, Out, any>,
  topic: string,
  message: ModelInput<Out>,
): Promise<void> {
  const built = app.websocketRoutes.find((each) => each.websocket === route);
  if (built === undefined) throw new TypeError("publish(): no route of this app serves this WebSocket.");
  await app.pubsub.publish(topic, built.socketDescription.writeOutbound(message));
}
