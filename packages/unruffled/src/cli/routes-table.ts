import type { BuiltRoute } from "../route/analyse/build-routes.ts";
import type { MarkerKind } from "../route/declare/markers.ts";

// Sources in the order a request is read: the URL, the head, then the body.
const SOURCE_ORDER: readonly MarkerKind[] = ["path", "query", "header", "cookie", "json", "form", "file"];

/**
 * The parameters of a route by source, with the names the request carries:
 * `path: item_id; query: page, size; json: student_id, course_id`, or `-` for none.
 *
 * @example parametersBySource(route) // "query: page, size, search"
 */
export function parametersBySource(route: BuiltRoute): string {
  const names = new Map<MarkerKind, string[]>();
  for (const param of route.endpointDescription.params) {
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
 * The routes as an aligned text table: method, path, name, parameters by source.
 *
 * @example
 * routesTable(app.routes)
 * // METHOD  PATH                      NAME           PARAMETERS
 * // GET     /api/enroll/student-list  list_students  query: page, size, search
 */
export function routesTable(routes: readonly BuiltRoute[]): string {
  const rows = [
    ["METHOD", "PATH", "NAME", "PARAMETERS"],
    ...routes.map((route) => [route.methods.join(", "), route.path, route.name, parametersBySource(route)]),
  ];
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) => row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column]!) : cell)).join("  "))
    .join("\n")
    .concat("\n");
}
