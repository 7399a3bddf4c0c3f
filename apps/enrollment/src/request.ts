import type { CorsOrigins } from "unruffled";
import { HttpRequest, type RawRequest } from "unruffled/http";
import type { Database } from "./db/index.ts";

/** The request the enrollment endpoints receive: an `HttpRequest` that knows the app's resources. */
export abstract class EnrollRequest extends HttpRequest {
  abstract readonly database: Database;
  /** The admin token; undefined when the write endpoints outside the seed are closed. */
  abstract readonly adminToken: string | undefined;
  /** True when a page of `origin` may call the service (the app's `corsOrigins`): WebSockets ask it. */
  abstract allowsPage(origin: string): boolean | Promise<boolean>;
}

/**
 * A request class for `createApp({ requestClass })` whose `database` is the app's (`current` gives
 * the database the app opened when it started), and whose `adminToken` and page origins are the app's.
 */
export function enrollRequestClass(
  current: () => Database,
  adminToken: string | undefined,
  corsOrigins: CorsOrigins = [],
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
    allowsPage(origin: string): boolean | Promise<boolean> {
      if (corsOrigins === "*") return true;
      if (typeof corsOrigins === "function") return corsOrigins(origin, this);
      return corsOrigins.some((allowed) =>
        typeof allowed === "string" ? allowed.toLowerCase() === origin : allowed.test(origin),
      );
    }
  };
}
