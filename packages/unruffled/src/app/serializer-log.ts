import type { LazyLogger } from "../logging/logger.ts";
import type { BuiltRoute } from "../route/analyse/build-routes.ts";

// pino's number for `debug`.
const DEBUG_LEVEL = 20;

/**
 * Says, once the routes are built and at `debug` level, which parts of each declared model Zod parses
 * instead of the compiled picker (a transform, a `.trim()`, an ambiguous union). Nothing is made or
 * loaded unless the level is `debug` or finer.
 *
 * @example logSerializerFallbacks(app.routes, lazyLogger) // endpoint "x" (GET /x) status 200: Zod parses tags[] (a transform or pipe)
 */
export function logSerializerFallbacks(routes: readonly BuiltRoute[], logger: LazyLogger): void {
  if (logger.levelVal > DEBUG_LEVEL) return;
  for (const route of routes) {
    const { label, answers } = route.endpointDescription;
    for (const serializer of answers?.byStatus.values() ?? []) {
      if (serializer.fallbacks.length === 0) continue;
      logger.logger.debug(
        { endpoint: label, status: serializer.status, zodParses: serializer.fallbacks },
        `${label} status ${serializer.status}: Zod parses ${serializer.fallbacks.join("; ")}; the rest of the model is compiled`,
      );
    }
  }
}
