import { fillPath } from "../client/encode-request.ts";
import type { BuiltRoute } from "../route/analyse/build-routes.ts";
import type { ParamDescription } from "../route/description.ts";
import type { BodyOptions } from "./encode-request.ts";
import type { FormValue, TestFile } from "./multipart-body.ts";

/** A request for one route, built from values keyed by parameter name. */
export interface EndpointRequest {
  method: string;
  path: string;
  options: BodyOptions;
}

/**
 * Places each parameter value where the route's analysed description says it is read: path
 * placeholder, query, header, cookie, or body (JSON, form or multipart), under its wire name.
 *
 * @example endpointRequest(bindRoute, { body: { student_id: 1, course_id: 2 } }).options.json
 */
export function endpointRequest(
  route: BuiltRoute,
  params: Readonly<Record<string, unknown>>,
): EndpointRequest {
  const description = route.endpointDescription;
  const pathValues: Record<string, string> = {};
  const query: Record<string, FormValue> = {};
  const headers: Record<string, string | string[]> = {};
  const cookies: Record<string, string> = {};
  const body: Record<string, unknown> = {};
  const files: Record<string, TestFile | readonly TestFile[]> = {};
  // A value that is the whole body, once given: JSON's null included.
  let wholeBody: { value: unknown } | undefined;
  for (const param of description.params) {
    const value = params[param.name];
    // Text has no null: one given for a value sent as text is left out, as undefined is (and as the
    // generated client leaves it out), not sent as the text "null".
    const asText = param.marker !== "json";
    if (value === undefined || (value === null && asText)) continue;
    if (param.wholeBody) {
      wholeBody = { value };
      continue;
    }
    for (const [wireName, given] of wireEntries(param, value, asText)) {
      // Strings on the wire (all but a JSON body, where JSON.stringify writes it): a date as ISO 8601.
      const item = param.marker === "json" ? given : isoDates(given);
      switch (param.location) {
        case "path":
          pathValues[wireName] = String(item);
          break;
        case "query":
          query[wireName] = item as FormValue;
          break;
        case "header":
          // A list is one line a value, as the socket reads a repeated header; an empty one is none.
          headers[wireName] = Array.isArray(item) ? item.map(String) : String(item);
          break;
        case "cookie":
          cookies[wireName] = String(item);
          break;
        default:
          if (param.marker === "file") files[wireName] = item as TestFile;
          else body[wireName] = item;
      }
    }
  }
  const options: BodyOptions = { query, headers, cookies };
  switch (description.bodyFormat) {
    case "json":
      // As the generated client sends it: the value given, else the fields given, else no body.
      if (wholeBody !== undefined) options.json = wholeBody.value;
      else if (Object.keys(body).length > 0) options.json = body;
      break;
    case "form":
      options.form = body as Record<string, FormValue>;
      break;
    case "multipart":
      options.form = body as Record<string, FormValue>;
      options.files = files;
      break;
  }
  const method = route.methods.find((candidate) => candidate !== "HEAD") ?? "GET";
  return {
    method,
    path: fillPath(route.path, pathValues, (name) => {
      throw new TypeError(`The call to ${route.path} needs a value for the path parameter {${name}}.`);
    }),
    options,
  };
}

/** A Date (or each of a list) as the ISO 8601 string the server reads into a Date again. */
function isoDates(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((item) => (item instanceof Date ? item.toISOString() : item));
  return value;
}

/** A scalar, list or file reads one wire name; a model spreads its fields over theirs (but null ones in text). */
function wireEntries(param: ParamDescription, value: unknown, asText: boolean): [string, unknown][] {
  if (param.shape !== "model") return [[param.fields[0]!.wireName, value]];
  const model = value as Record<string, unknown>;
  return param.fields
    .filter((field) => model[field.key!] !== undefined && !(asText && model[field.key!] === null))
    .map((field) => [field.wireName, model[field.key!]]);
}
