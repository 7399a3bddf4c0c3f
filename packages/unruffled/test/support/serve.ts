import { type AppOptions, createApp } from "unruffled";
import type { EndpointDefinition, RouteDefinition } from "unruffled/route";
import { path } from "unruffled/route";
import { type RunningServer, startServer } from "unruffled/testing";
import { afterAll } from "vitest";

const running: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** Serves routes on a loopback port for the rest of the test file. */
export async function serve(
  routes: readonly RouteDefinition[],
  options: Omit<AppOptions, "routes"> = {},
): Promise<RunningServer> {
  const server = await startServer(createApp({ ...options, routes }));
  running.push(server);
  return server;
}

/** Serves one endpoint at a path (GET unless methods say otherwise). */
export function serveEndpoint(
  routePath: string,
  endpoint: EndpointDefinition<any, any>,
  methods: string[] = ["GET"],
  options: Omit<AppOptions, "routes"> = {},
): Promise<RunningServer> {
  return serve([path(routePath, { endpoint, methods })], options);
}

/** The status and the parsed JSON body of a response. */
export async function jsonOf(
  response: Response | Promise<Response>,
): Promise<{ status: number; body: unknown }> {
  const resolved = await response;
  const text = await resolved.text();
  return { status: resolved.status, body: text === "" ? undefined : JSON.parse(text) };
}

export const JSON_HEADERS = { "content-type": "application/json" };
