import { defaultPubSub, postgresPubSub, redisPubSub } from "unruffled/pubsub";

// One broker for the app and its handlers, in a module of its own: handlers import it, and
// createApp({ pubsub }) closes it when the app closes.
const { REDIS_URL, DATABASE_URL } = process.env;
export const pubsub = REDIS_URL
  ? redisPubSub({ url: REDIS_URL })
  : DATABASE_URL?.startsWith("postgres")
    ? postgresPubSub({ connectionString: DATABASE_URL })
    : defaultPubSub(); // across the workers under --workers N, else within the process
