import { fillPath, UnencodablePathValue, wirePath } from "../client/encode-request.ts";
import { NoMatchFound } from "../errors.ts";
import type { PathValues, RoutePaths } from "../http/request.ts";
import { placeholderNames } from "../route/declare/path.ts";

/** One named route as the table serves it: its full path, and the names of its placeholders. */
interface NamedPath {
  path: string;
  /** The path as a client sends it (`wirePath`), for a route without placeholders. */
  wire: string;
  placeholders: readonly string[];
  /** The placeholder that takes the rest of the path (`{name:path}`), if any. */
  rest: string | undefined;
}

/**
 * The paths of the app's routes by name, as the route table registered them (the groups' prefixes
 * included, the default `<method>_<path>` names too): what `app.urlPathFor` and `request.urlFor` read.
 */
export class RouteUrls implements RoutePaths {
  private readonly byName = new Map<string, NamedPath>();
  /** The app's `ROOT_PATH` (checked when it is built); "" for none. */
  rootPath = "";

  /** Adds a route as it is registered; a name already taken keeps its first route. */
  add(route: { readonly name: string; readonly path: string }): void {
    if (this.byName.has(route.name)) return;
    const placeholders = placeholderNames(route.path);
    // Only the last segment may take the rest of the path (checked when the route was declared).
    const rest = route.path.endsWith(":path}") ? placeholders.at(-1) : undefined;
    this.byName.set(route.name, { path: route.path, wire: wirePath(route.path), placeholders, rest });
  }

  /**
   * The path of the route named `name` as a client sends it (its own text percent-encoded where a
   * URL needs it: `/café` is `/caf%C3%A9`), its placeholders filled with `values`, each
   * percent-encoded as one segment (a `{name:path}` value keeps its slashes). Throws `NoMatchFound` for an unknown
   * name, a missing, extra or empty value, or one no URL can carry (a lone UTF-16 surrogate).
   *
   * @example urls.pathFor("get_student", { student_id: 42 }) // "/students/42"
   */
  pathFor(name: string, values: PathValues = {}): string {
    const route = this.byName.get(name);
    if (route === undefined) throw new NoMatchFound(`No route is named "${name}"`);
    const given = Object.keys(values);
    if (given.length === 0 && route.placeholders.length === 0) return route.wire;
    const label = `The route "${name}" (${route.path})`;
    const expects =
      route.placeholders.length === 0
        ? "has no path parameters"
        : `needs the path parameter${route.placeholders.length === 1 ? "" : "s"} ${route.placeholders.join(", ")}`;
    const extra = given.find((key) => !route.placeholders.includes(key));
    if (extra !== undefined) throw new NoMatchFound(`${label} ${expects}; ${extra} is not one`);
    const text: Record<string, string> = {};
    for (const placeholder of route.placeholders) {
      const value = values[placeholder];
      if (value === undefined) throw new NoMatchFound(`${label} ${expects}; ${placeholder} is missing`);
      text[placeholder] = String(value);
      if (text[placeholder] === "" && placeholder !== route.rest) {
        throw new NoMatchFound(`${label} cannot take an empty ${placeholder}: the segment would be empty`);
      }
    }
    try {
      return fillPath(route.path, text);
    } catch (error) {
      if (!(error instanceof UnencodablePathValue)) throw error;
      throw new NoMatchFound(`${label} cannot take this ${error.param}: it ${error.reason}`);
    }
  }
}
