import { HttpRequest, type RawRequest } from "unruffled/http";
import type { Database } from "./db/index.ts";

/** The request the enrollment endpoints receive: an `HttpRequest` that knows the app's resources. */
export abstract class EnrollRequest extends HttpRequest {
  abstract readonly database: Database;
  /** The admin token; undefined when the write endpoints outside the seed are closed. */
  abstract readonly adminToken: string | undefined;
}

/**
 * A request class for `createApp({ requestClass })` whose `database` is the app's (`current` gives
 * the database the app opened when it started) and whose `adminToken` is the app's.
 */
export function enrollRequestClass(
  current: () => Database,
  adminToken: string | undefined,
): new (
  raw: RawRequest,
) => EnrollRequest {
  return class extends EnrollRequest {
    get database(): Database {
      return current();
    }
    get adminToken(): string | undefined {
      return adminToken;
    }
  };
}
