import { wirePath } from "../client/encode-request.ts";
import type { BuiltRoute } from "../route/analyse/build-routes.ts";
import type { MarkerKind } from "../route/declare/markers.ts";
import type { EndpointDescription } from "../route/description.ts";
import type { BuiltWebSocketRoute } from "../websocket/built-route.ts";

// Sources in the order a request is read: the URL, the head, then the body.
const SOURCE_ORDER: readonly MarkerKind[] = ["path", "query", "header", "cookie", "json", "form", "file"];

/**
 * The parameters of an endpoint (or of a WebSocket route's upgrade request) by source, with the
 * names the request carries: `path: item_id; query: page, size; json: student_id, course_id`, or `-`
 * for none.
 *
 * @example parametersBySource(route.endpointDescription) // "query: page, size, search"
 */
export function parametersBySource(description: EndpointDescription): string {
  const names = new Map<MarkerKind, string[]>();
  for (const param of description.params) {
    const list = names.get(param.marker) ?? [];
    // A model is listed by its fields: those are the names on the wire.
    for (const field of param.fields) list.push(field.documentedName);
    names.set(param.marker, list);
  }
  const parts = SOURCE_ORDER.filter((source) => names.has(source)).map(
    (source) => `${source}: ${names.get(source)!.join(", ")}`,
  );
  return parts.length === 0 ? "-" : parts.join("; ");
}

/**
 * The routes as an aligned text table: method, path (as a client sends it: `/café` is
 * `/caf%C3%A9`), name, parameters by source. WebSocket routes follow the HTTP ones, with the method
 * `WS` and the parameters of their upgrade request.
 *
 * @example
 * routesTable(app.routes, app.websocketRoutes)
 * // METHOD  PATH                      NAME           PARAMETERS
 * // GET     /api/enroll/student-list  list_students  query: page, size, search
 * // WS      /chat/{room}              chat           path: room; query: nick
 */
export function routesTable(
  routes: readonly BuiltRoute[],
  websocketRoutes: readonly BuiltWebSocketRoute[] = [],
): string {
  const rows = [
    ["METHOD", "PATH", "NAME", "PARAMETERS"],
    ...routes.map((route) => [
      route.methods.join(", "),
      wirePath(route.path),
      route.name,
      parametersBySource(route.endpointDescription),
    ]),
    ...websocketRoutes.map((route) => [
      "WS",
      wirePath(route.path),
      route.name,
      parametersBySource(route.socketDescription.upgrade),
    ]),
  ];
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) => row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column]!) : cell)).join("  "))
    .join("\n")
    .concat("\n");
}
