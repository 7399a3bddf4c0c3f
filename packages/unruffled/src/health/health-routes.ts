import { HttpResponse } from "../http/response.ts";
import { QUIET_ACCESS_LOG } from "../logging/access-log.ts";
import { type BuiltRoute, buildRoutes } from "../route/analyse/build-routes.ts";
import { endpoint } from "../route/declare/endpoint.ts";
import { path, type RouteDefinition } from "../route/declare/path.ts";
import type { HealthState } from "./health-state.ts";

// A probe's answer must never come from a cache.
const HEADERS = { "cache-control": "no-store" };
const PASS = JSON.stringify({ status: "pass" });
const STARTING = JSON.stringify({ status: "fail", reason: "starting", checks: {} });
const DRAINING = JSON.stringify({ status: "fail", reason: "draining", checks: {} });
const READY_WITHOUT_CHECKS = JSON.stringify({ status: "pass", checks: {} });

/** A JSON answer of a health route: never cached, logged at `debug`. */
function answer(status: number, json: string): HttpResponse {
  const response = new HttpResponse(json, { status, headers: { ...HEADERS } }, "application/json");
  (response as unknown as Record<symbol, string>)[QUIET_ACCESS_LOG] = "debug";
  return response;
}

/**
 * The health routes of an app, built like any route but with no app dependency (so no security
 * scheme): `taken` names paths the app serves itself, which keep the app's route.
 *
 * @example for (const route of healthRoutes(state, { taken: new Set(), fileSizeLimit })) app.register(route);
 */
export function healthRoutes(
  state: HealthState,
  options: { taken: ReadonlySet<string>; fileSizeLimit: number },
): BuiltRoute[] {
  const { paths, openapi } = state.options;
  const definitions: RouteDefinition[] = [];
  const add = (
    at: string | false,
    name: string,
    summary: string,
    handler: () => HttpResponse | Promise<HttpResponse>,
  ) => {
    if (at === false || options.taken.has(at)) return;
    definitions.push(
      path(at, {
        name,
        summary,
        tags: ["health"],
        includeInSchema: openapi,
        endpoint: endpoint({ returns: HttpResponse, handler }),
      }),
    );
  };
  add(paths.live, "health_live", "Liveness: the process answers", () => answer(200, PASS));
  add(paths.startup, "health_startup", "Start-up: the onStartup hooks have finished", () =>
    state.started ? answer(200, PASS) : answer(503, STARTING),
  );
  add(paths.ready, "health_ready", "Readiness: the app's checks pass and it is not draining", () => {
    state.probed = true;
    if (!state.started) return answer(503, STARTING);
    if (state.draining) return answer(503, DRAINING);
    if (state.checks.count === 0) return answer(200, READY_WITHOUT_CHECKS);
    return state.checks.run().then((report) => {
      // Drained while the checks ran: the load balancer must hear it now.
      if (state.draining) return answer(503, DRAINING);
      return answer(report.status === "pass" ? 200 : 503, JSON.stringify(report));
    });
  });
  return buildRoutes(definitions, { fileSizeLimit: options.fileSizeLimit });
}
