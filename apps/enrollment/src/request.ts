import { HttpRequest, type RawRequest } from "unruffled/http";
import type { Database } from "./db/index.ts";

/** The request the enrollment endpoints receive: an `HttpRequest` that knows the app's database. */
export abstract class EnrollRequest extends HttpRequest {
  abstract readonly database: Database;
}

/** A request class bound to one database, for `createApp({ requestClass })`. */
export function enrollRequestClass(database: Database): new (raw: RawRequest) => EnrollRequest {
  return class extends EnrollRequest {
    get database(): Database {
      return database;
    }
  };
}
