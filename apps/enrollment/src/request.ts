import { HttpRequest, type RawRequest } from "unruffled/http";
import type { Database } from "./db/index.ts";

/** The request the enrollment endpoints receive: an `HttpRequest` that knows the app's database. */
export abstract class EnrollRequest extends HttpRequest {
  abstract readonly database: Database;
}

/**
 * A request class for `createApp({ requestClass })` whose `database` is the app's: `current`
 * gives it (the database the app opened when it started).
 */
export function enrollRequestClass(current: () => Database): new (raw: RawRequest) => EnrollRequest {
  return class extends EnrollRequest {
    get database(): Database {
      return current();
    }
  };
}
