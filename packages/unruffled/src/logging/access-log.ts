import type { HttpRequest } from "../http/request.ts";
import type { HttpResponse } from "../http/response.ts";
import type { LazyLogger } from "./logger.ts";

/** The header that carries the request id, both ways. */
export const REQUEST_ID_HEADER = "x-request-id";

/**
 * A response property that lowers its access log record to `debug`: the health routes set it, so
 * that a load balancer probing twice a second does not fill the `info` log.
 */
export const QUIET_ACCESS_LOG = Symbol("unruffled.quietAccessLog");

/**
 * One `info` record per answered request: id, method, path (never the query string), status,
 * milliseconds until the response was ready, the client's address (`request.client.address`: behind
 * trusted proxies, the client they name), then the response's `logFields` when it has any (an
 * app's own outcome code). Never headers, cookies or bodies. The clock is read only while `info` is
 * enabled, so a quieter level costs nothing but the id.
 */
export class AccessLog {
  private readonly logger: LazyLogger;
  private readonly enabled: boolean;

  constructor(logger: LazyLogger, enabled: boolean) {
    this.logger = logger;
    this.enabled = enabled;
  }

  /** The start time of a request, or -1 when it will not be logged. */
  start(): number {
    // levelVal is pino's numeric level (info = 30): a property read, cheaper than isLevelEnabled().
    return this.enabled && this.logger.levelVal <= 30 ? performance.now() : -1;
  }

  /** Echoes the request id (unless the handler set its own) and writes the record. */
  finish(request: HttpRequest, response: HttpResponse, started: number): HttpResponse {
    response.headers[REQUEST_ID_HEADER] ??= request.id;
    if (started >= 0) {
      const record: Record<string, unknown> = {
        reqId: request.id,
        method: request.method,
        path: request.path,
        status: response.status,
        durationMs: Math.round((performance.now() - started) * 1000) / 1000,
        // The address alone: without PROXIES, the socket's, without working out the origin.
        client: request.clientAddress,
      };
      const fields = response.logFields;
      if (fields !== undefined) addFields(record, fields);
      const logger = this.logger.logger;
      if ((response as unknown as Record<symbol, unknown>)[QUIET_ACCESS_LOG] === "debug") {
        logger.debug(record, "request completed");
      } else logger.info(record, "request completed");
    }
    return response;
  }

  /** The record of a request the server refused before the app saw it: `info`, "request refused". */
  refused(request: RefusedRequest): void {
    if (this.enabled && this.logger.levelVal <= 30) this.logger.logger.info(request, "request refused");
  }
}

/** What the access log writes of a request the server could not read, so had no route or path for. */
export interface RefusedRequest {
  reqId: string;
  status: number;
  /** The peer's address, when the connection still had one. */
  client: string | undefined;
  /** The parser's code (`HPE_HEADER_OVERFLOW`, `ERR_HTTP_REQUEST_TIMEOUT`). */
  reason: string | undefined;
}

/** A response's own fields after the record's, which they never replace. */
function addFields(record: Record<string, unknown>, fields: Readonly<Record<string, unknown>>): void {
  for (const key of Object.keys(fields)) if (!(key in record)) record[key] = fields[key];
}
