import type { OperationPlan, ParamPlan } from "./operation-plan.ts";

/** What `fetch` is given for one call: the URL (after the base) and the request's parts. */
export interface EncodedCall {
  /** The path with its placeholders filled, and the query string. */
  target: string;
  headers: Record<string, string>;
  body: string | URLSearchParams | FormData | undefined;
}

/**
 * Places each value where the endpoint reads it, as the server decodes it: path placeholders
 * percent-encoded, a list as repeated query (or form) names, a header list joined by commas (an
 * empty one sent as nothing),
 * cookies in one `Cookie` header, and the body as JSON, an urlencoded form or multipart.
 *
 * @example encodeCall(plan, { page: 2, tag: ["a", "b"] }).target // "/items?page=2&tag=a&tag=b"
 */
export function encodeCall(plan: OperationPlan, params: Readonly<Record<string, unknown>>): EncodedCall {
  const pathValues: Record<string, string> = {};
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  const fields: [string, unknown][] = [];
  let wholeBody: unknown;
  // Text has no null: a null given for a value sent as text is left out, as undefined is.
  const textual = plan.body !== "json";
  for (const param of plan.params) {
    const value = params[param.name];
    if (value === undefined) continue;
    if (param.whole) {
      wholeBody = value;
      continue;
    }
    if (value === null && (param.in !== "body" || textual)) continue;
    for (const [wire, item] of wireEntries(param, value, param.in !== "body" || textual)) {
      switch (param.in) {
        case "path":
          pathValues[wire] = text(item);
          break;
        case "query":
          for (const one of listOf(item)) query.append(wire, encodable("query", wire, text(one)));
          break;
        case "header": {
          // An empty list is no header line, as it is no query key: the server reads its default.
          const items = listOf(item);
          if (items.length > 0)
            headers[wire] = items.map((one) => encodable("header", wire, text(one))).join(", ");
          break;
        }
        case "cookie":
          cookies.push(`${wire}=${encodeURIComponent(encodable("cookie", wire, text(item)))}`);
          break;
        default:
          fields.push([wire, item]);
      }
    }
  }
  if (cookies.length > 0) headers.cookie = cookies.join("; ");
  const search = query.toString();
  const target = fillPath(plan.path, pathValues) + (search === "" ? "" : `?${search}`);
  return { target, headers, body: encodeBody(plan, fields, wholeBody, headers) };
}

/** A scalar, list or file fills one name; a model spreads its fields over theirs (null ones too in JSON). */
function wireEntries(param: ParamPlan, value: unknown, asText: boolean): [string, unknown][] {
  if (param.fields === undefined) return [[param.wire!, value]];
  const model = value as Record<string, unknown>;
  const entries: [string, unknown][] = [];
  for (const [key, wire] of Object.entries(param.fields)) {
    const field = model[key];
    if (field !== undefined && !(asText && field === null)) entries.push([wire, field]);
  }
  return entries;
}

function encodeBody(
  plan: OperationPlan,
  fields: readonly [string, unknown][],
  wholeBody: unknown,
  headers: Record<string, string>,
): EncodedCall["body"] {
  switch (plan.body) {
    case "json":
      if (wholeBody === undefined && fields.length === 0) return undefined;
      headers["content-type"] = "application/json";
      return JSON.stringify(wholeBody !== undefined ? wholeBody : Object.fromEntries(fields));
    case "form": {
      const form = new URLSearchParams();
      for (const [wire, item] of fields) {
        for (const one of listOf(item)) form.append(wire, encodable("form", wire, text(one)));
      }
      return form;
    }
    case "multipart": {
      // fetch writes the boundary into the content type itself.
      const form = new FormData();
      for (const [wire, item] of fields) {
        for (const one of listOf(item)) {
          if (one instanceof Blob) form.append(wire, one);
          else form.append(wire, encodable("form", wire, text(one)));
        }
      }
      return form;
    }
    default:
      return undefined;
  }
}

/**
 * The path with each placeholder filled, percent-encoded; a `{name:path}` value keeps its slashes.
 * The path's own text is sent as `wirePath` writes it. A placeholder without a value is
 * `missing(name)`'s (the test client throws there).
 *
 * @example fillPath("/files/{file_path:path}", { file_path: "a b/c" }) // "/files/a%20b/c"
 */
export function fillPath(
  path: string,
  values: Readonly<Record<string, string>>,
  // The types require every path parameter; a missing one is sent as an empty segment, and the
  // server answers for it (404 or 422) rather than the client throwing.
  missing: (name: string) => string = () => "",
): string {
  return wirePath(path).replace(PLACEHOLDER, (_placeholder, name: string, rest: string | undefined) => {
    const value = values[name];
    if (value === undefined) return missing(name);
    try {
      // The rest of the path keeps its slashes; every other character is encoded as in a segment.
      return rest === undefined
        ? encodeURIComponent(value)
        : value.split("/").map(encodeURIComponent).join("/");
    } catch (error) {
      throw unencodable(name, value, error);
    }
  });
}

/** Where a request carries a value, as an error about it names the place. */
export type ValuePlace = "path" | "query" | "header" | "cookie" | "form";

/** A value no request can carry, refused before anything is sent: what is wrong, and where it goes. */
export class UnencodableValue extends TypeError {
  readonly place: ValuePlace;
  readonly param: string;
  readonly reason: string;

  constructor(place: ValuePlace, param: string, reason: string) {
    super(`the ${place} parameter ${param} ${reason}`);
    this.place = place;
    this.param = param;
    this.reason = reason;
  }
}

/** A path value no URL can carry (`fillPath` throws it; `urlPathFor` names the route too). */
export class UnencodablePathValue extends UnencodableValue {
  constructor(param: string, reason: string) {
    super("path", param, reason);
  }
}

/**
 * The value as it is, or an `UnencodableValue` naming it and its place when it holds half a UTF-16
 * surrogate pair: URLSearchParams and FormData would send U+FFFD instead, changing it without a word.
 *
 * @example encodable("query", "q", "a\uD800") // throws "the query parameter q holds a lone UTF-16 surrogate (\ud800, …"
 */
export function encodable(place: ValuePlace, param: string, value: string): string {
  const reason = loneSurrogate(value, CARRIER[place]);
  if (reason === undefined) return value;
  throw new UnencodableValue(place, param, reason);
}

// What could not carry the value, for the message: a URL, a header line or a form body.
const CARRIER: Readonly<Record<ValuePlace, string>> = {
  path: "URL",
  query: "URL",
  header: "header",
  cookie: "header",
  form: "form",
};

// Half of a UTF-16 surrogate pair without its other half: encodeURIComponent's URIError, said plainly.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The first half of a UTF-16 surrogate pair in `text` without its other half (no UTF-8 form, so
 * no URL, header or form can carry it), as a message shows it: escaped (`\ud800`, which a log can
 * show) and its 1-based position; undefined when there is none.
 *
 * @example loneSurrogateIn("a\uD800") // { escaped: "\\ud800", position: 2 }
 */
export function loneSurrogateIn(text: string): { escaped: string; position: number } | undefined {
  const lone = LONE_SURROGATE.exec(text);
  if (lone === null) return undefined;
  return { escaped: JSON.stringify(lone[0]).slice(1, -1), position: lone.index + 1 };
}

function loneSurrogate(value: string, carrier: string): string | undefined {
  const lone = loneSurrogateIn(value);
  if (lone === undefined) return undefined;
  return `holds a lone UTF-16 surrogate (${lone.escaped}, character ${lone.position}), which has no UTF-8 form, so no ${carrier} can carry it`;
}

function unencodable(name: string, value: string, error: unknown): unknown {
  const reason = loneSurrogate(value, CARRIER.path);
  return reason === undefined ? error : new UnencodablePathValue(name, reason);
}

const PLACEHOLDER = /\{([^}:]+)(:path)?\}/g;
// What a URL path holds as written: RFC 3986 pchar, "/", a percent-encoding already made, and the
// braces of a placeholder segment.
const PATH_TEXT = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/{}]|%[0-9A-Fa-f]{2})*$/;
// What a path segment cannot hold as it is: a "%" that starts no percent-encoding, and any run of
// characters outside pchar (a surrogate pair stays in one run).
const NOT_IN_SEGMENT = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@%]+/g;

/**
 * A route path (written decoded) as a client sends it: each fixed segment percent-encoded as UTF-8
 * where a URL path needs it, placeholders and percent-encodings already made kept (so it encodes
 * once: a hand-written plan's `/a%20b` stays). The router matches a request's path decoded, so this
 * is the path it answers; the OpenAPI document, `app.urlPathFor` and the clients write it so.
 *
 * @example wirePath("/menu/crème brûlée/{size}") // "/menu/cr%C3%A8me%20br%C3%BBl%C3%A9e/{size}"
 */
export function wirePath(path: string): string {
  if (PATH_TEXT.test(path)) return path;
  return path
    .split("/")
    .map((segment) =>
      segment.startsWith("{") ? segment : segment.replace(NOT_IN_SEGMENT, encodeURIComponent),
    )
    .join("/");
}

function listOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [value];
}

/** The text of one value on the wire: dates as ISO strings, everything else as `String()` gives it. */
function text(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value);
}
