import { settleWithin } from "../settle-within.ts";
import type { Decisions } from "./store.ts";

/**
 * A store's answer, or its failure once `ms` have passed without one: a store whose server takes
 * the connection and then says nothing (overloaded, cut off mid-connection, another service on its
 * port) must not hold its requests for ever. The failure is a store failure like any other, so
 * `RATE_LIMITS.on_store_failure` decides the request; an answer that comes later is dropped.
 *
 * @example await withinStoreTimeout(store.consume(checks), 1_000) // Decisions, or throws after 1 s
 */
export function withinStoreTimeout(answer: Promise<Decisions>, ms: number): Promise<Decisions> {
  return settleWithin(answer, ms, () => new Error(`The rate-limit store did not answer within ${ms} ms`));
}
