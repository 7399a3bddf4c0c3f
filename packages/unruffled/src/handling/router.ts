import { ValueError } from "../errors.ts";

/**
 * Finds the route for a method and a path. Static paths are one map lookup; paths with placeholders
 * walk a tree of segments, static children before placeholders, and a `{name:path}` placeholder (the
 * rest of the path, slashes included, empty too) last. Route paths are written decoded (`/café`);
 * a request's fixed segments are compared decoded, each on its own, so `/caf%C3%A9` and `/caf%65`
 * find `/café` and `/cafe` but `/a%2Fb` never finds `/a/b` (as Starlette, but for the slash).
 */
export interface RouteMatch<T> {
  /** The handlers of the path, by method. */
  methods: ReadonlyMap<string, T>;
  /** The `Allow` header value for this path. */
  allow: string;
  /** Placeholder values, still percent-encoded. */
  params: Record<string, string> | undefined;
}

interface Node<T> {
  children: Map<string, Node<T>>;
  param: { name: string; node: Node<T> } | undefined;
  /** A `{name:path}` placeholder here: it takes every segment left, so its node only has a match. */
  rest: { name: string; node: Node<T> } | undefined;
  match: RouteMatch<T> | undefined;
}

function newNode<T>(): Node<T> {
  return { children: new Map(), param: undefined, rest: undefined, match: undefined };
}

export class Router<T> {
  private readonly staticRoutes = new Map<string, RouteMatch<T>>();
  private readonly root: Node<T> = newNode();

  /** Registers a handler; returns false when the method is already taken at that path. */
  add(method: string, path: string, handler: T): boolean {
    let match: RouteMatch<T> | undefined;
    if (!path.includes("{")) {
      match = this.staticRoutes.get(path);
      if (!match) {
        match = { methods: new Map(), allow: "", params: undefined };
        this.staticRoutes.set(path, match);
      }
    } else {
      let node = this.root;
      for (const segment of path.split("/").slice(1)) {
        if (segment.endsWith(":path}")) {
          const name = segment.slice(1, -":path}".length);
          if (!node.rest) node.rest = { name, node: newNode() };
          else if (node.rest.name !== name) {
            throw new ValueError(
              `The placeholder ${segment} in "${path}" clashes with {${node.rest.name}:path} at the same place of another route; name it the same in both.`,
            );
          }
          node = node.rest.node;
        } else if (segment.startsWith("{")) {
          const name = segment.slice(1, -1);
          if (!node.param) node.param = { name, node: newNode() };
          else if (node.param.name !== name) {
            throw new ValueError(
              `The placeholder {${name}} in "${path}" clashes with {${node.param.name}} at the same place of another route; name it the same in both.`,
            );
          }
          node = node.param.node;
        } else {
          let child = node.children.get(segment);
          if (!child) {
            child = newNode();
            node.children.set(segment, child);
          }
          node = child;
        }
      }
      node.match ??= { methods: new Map(), allow: "", params: undefined };
      match = node.match;
    }
    const methods = match.methods as Map<string, T>;
    if (methods.has(method)) return false;
    methods.set(method, handler);
    match.allow = [...methods.keys()].join(", ");
    return true;
  }

  /** The paths without placeholders, each with its handlers by method. */
  fixedPaths(): IterableIterator<[string, RouteMatch<T>]> {
    return this.staticRoutes.entries();
  }

  find(path: string): RouteMatch<T> | undefined {
    const found = this.staticRoutes.get(path);
    if (found) return found;
    const segments = path.split("/");
    // Only a path with a percent-encoding pays for decoding; a plain path's segments are their own.
    let decoded = segments;
    if (path.includes("%")) {
      decoded = segments.map(decodeSegment);
      // A decoded segment holding a slash (`%2F`) is no segment of a static path.
      if (!decoded.some((segment) => segment.includes("/"))) {
        const decodedFound = this.staticRoutes.get(decoded.join("/"));
        if (decodedFound) return decodedFound;
      }
    }
    const params: Record<string, string> = {};
    const node = this.walk(this.root, segments, decoded, 1, params);
    return node?.match ? { methods: node.match.methods, allow: node.match.allow, params } : undefined;
  }

  /** Fixed children are found by the decoded segment; placeholders take the segments as sent. */
  private walk(
    node: Node<T>,
    segments: string[],
    decoded: string[],
    index: number,
    params: Record<string, string>,
  ): Node<T> | undefined {
    if (index === segments.length) return node.match ? node : undefined;
    const segment = segments[index]!;
    const child = node.children.get(decoded[index]!);
    if (child) {
      const found = this.walk(child, segments, decoded, index + 1, params);
      if (found) return found;
    }
    if (node.param && segment !== "") {
      const found = this.walk(node.param.node, segments, decoded, index + 1, params);
      if (found) {
        params[node.param.name] = segment;
        return found;
      }
    }
    if (node.rest) {
      params[node.rest.name] = segments.slice(index).join("/");
      return node.rest.node;
    }
    return undefined;
  }
}

/** A request's path segment decoded, or as sent when its percent-encoding is malformed (no route has a `%`). */
function decodeSegment(segment: string): string {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
