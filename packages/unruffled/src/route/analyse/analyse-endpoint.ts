import { z } from "zod";
import { ValueError } from "../../errors.ts";
import type { EndpointDefinition } from "../declare/endpoint.ts";
import type { Overrides } from "../declare/overrides.ts";
import { placeholderNames } from "../declare/path.ts";
import { type EndpointDescription, LOCATIONS, type Location, type ParamDescription } from "../description.ts";
import { QueryReader } from "../wire/query-reader.ts";
import { bodyFormatOf } from "./body-format.ts";
import { buildDependencyGraph } from "./dependency-graph.ts";
import type { ParamContext } from "./describe-param.ts";
import { describeReturns } from "./describe-returns.ts";
import { wholeValueName } from "./schema-shape.ts";

export interface AnalyseOptions {
  /** The route's full path, with its `{name}` placeholders. */
  path: string;
  /** How messages name the endpoint: `endpoint "list_students" (GET /api/enroll/student-list)`. */
  label: string;
  /** The app's per-file size limit, the ceiling of every `p.File({ maxSize })`. */
  fileSizeLimit: number;
  /** The app's and the route's groups' dependencies, outermost first: resolved, never injected. */
  dependencies?: readonly unknown[];
  /** Replacements for dependencies or schemes wherever they are declared (tests). */
  overrides?: Overrides;
  /** Why there is no path, for a request the API sends (a webhook, a callback): `p.Path` is refused. */
  pathless?: string;
}

/**
 * Analyses an endpoint's declarations against its route path, once, into the description that the
 * request path, the OpenAPI generator and the error messages read. Raises `ValueError` or
 * `TypeHintRequired` naming the endpoint, the parameter, the problem and the fix.
 *
 * @example analyseEndpoint(listStudents, { path: "/students", label, fileSizeLimit }).byLocation.query
 */
export function analyseEndpoint(endpoint: EndpointDefinition, options: AnalyseOptions): EndpointDescription {
  const { label } = options;
  // Refused here, not at the first request, where it was a 500 "handler is not a function".
  if (typeof endpoint.handler !== "function") {
    throw new ValueError(
      `${label} has no handler. Give it the function that answers: handler: (request, params) => new JsonResponse(…).`,
    );
  }
  const returns = describeReturns(endpoint.returns as unknown, label);
  const context = {
    label,
    path: options.path,
    placeholders: new Set(placeholderNames(options.path)),
    fileSizeLimit: options.fileSizeLimit,
    pathless: options.pathless,
  };
  const declared = (endpoint.params ?? {}) as Record<string, unknown>;
  const graph = buildDependencyGraph(
    declared,
    options.dependencies ?? [],
    context,
    options.overrides ?? NO_OVERRIDES,
  );
  const params = graph.params;
  const bodyFormat = bodyFormatOf(params, label);
  const byLocation = Object.fromEntries(
    LOCATIONS.map((location) => [location, [] as ParamDescription[]]),
  ) as Record<Location, ParamDescription[]>;
  for (const param of params) byLocation[param.location].push(param);
  // A JSON model alone in the body is validated on the body itself (its errors then point at
  // `body`, and strict or loose objects keep their meaning), unless aliases rename its fields.
  const jsonParams = byLocation.body.filter((param) => param.marker === "json");
  const whole = jsonParams.find((param) => param.wholeBody);
  if (whole !== undefined && jsonParams.length > 1) {
    const other = jsonParams.find((param) => param !== whole)!;
    throw new ValueError(
      `${label}, parameter "${whole.name}" is a JSON value with no fixed fields (${wholeValueName(whole.schema)}), which is the whole body: it cannot share the body with parameter "${other.name}". Declare one z.object model that holds both.`,
    );
  }
  const only = jsonParams.length === 1 ? jsonParams[0]! : undefined;
  // Alone, a JSON model is the body even when it renames its fields: `{}` is the model sent empty.
  if (only !== undefined) only.absentWhenEmpty = false;
  if (only?.shape === "model" && only.fields.every((field) => field.wireName === field.key))
    only.wholeBody = true;
  knowNames(byLocation);
  const validator = buildValidator(byLocation);
  // After the validator: a placeholder no parameter reads is documented and filled, never validated.
  for (const param of unreadPlaceholders(context, params)) {
    params.push(param);
    byLocation.path.push(param);
  }

  const plain = graph.dependencies.length === 0 && graph.handlerArgs.every((arg) => arg.key === arg.name);
  return {
    endpoint,
    label,
    params,
    dependencies: graph.dependencies.length === 0 ? undefined : graph.dependencies,
    // Without dependencies, keys are the parameters' names: the validated values are the handler's.
    handlerArgs: plain ? undefined : graph.handlerArgs,
    security: graph.security,
    byLocation,
    queryReader:
      byLocation.query.length === 0
        ? undefined
        : new QueryReader(
            byLocation.query.flatMap((param) => param.fields.map((field) => field.wireName)),
            byLocation.query.some((param) => param.knownNames !== undefined),
          ),
    bodyFormat,
    uncheckedNumbers: byLocation.body.some((param) => param.uncheckedNumbers === true),
    fileSizeLimits: new Map(
      params.flatMap((param) =>
        param.fileSizeLimit === undefined ? [] : [[param.fields[0]!.wireName, param.fileSizeLimit] as const],
      ),
    ),
    validator,
    ...returns,
  };
}

function buildValidator(byLocation: Record<Location, ParamDescription[]>): z.ZodType | undefined {
  // Keyed by parameter key (unique across locations), in location order, so that issues come in
  // the order the sources are read.
  const shape: Record<string, z.ZodType> = {};
  for (const location of LOCATIONS) for (const param of byLocation[location]) shape[param.key] = param.schema;
  if (Object.keys(shape).length === 0) return undefined;
  return z.compile(z.object(shape));
}

const NO_OVERRIDES: Overrides = new Map();

const ANY_TEXT = z.string();

/**
 * The route path's placeholders that no parameter reads, each as a required string path parameter
 * (OpenAPI requires one per placeholder, and clients fill it; middleware reads it in
 * `request.pathParams`). A parameter named like one but read elsewhere is refused: it would be taken
 * for it (FastAPI refuses it too).
 */
function unreadPlaceholders(context: ParamContext, params: readonly ParamDescription[]): ParamDescription[] {
  const read = new Set(
    params.flatMap((param) => (param.location === "path" ? param.fields.map((field) => field.wireName) : [])),
  );
  const unread: ParamDescription[] = [];
  for (const name of context.placeholders) {
    if (read.has(name)) continue;
    const named = params.find((param) => param.name === name);
    if (named !== undefined) refuseNamedLike(context, named);
    const field = {
      key: null,
      wireName: name,
      documentedName: name,
      list: false,
      coerce: undefined,
      schema: ANY_TEXT,
      required: true,
    };
    unread.push({
      name,
      key: name,
      owner: undefined,
      marker: "path",
      location: "path",
      detected: true,
      shape: "scalar",
      schema: ANY_TEXT,
      required: true,
      fields: [field],
      options: {},
      wholeBody: false,
      fileSizeLimit: undefined,
    });
  }
  return unread;
}

function refuseNamedLike(context: ParamContext, param: ParamDescription): never {
  const where = `${context.label}, parameter "${param.name}"${param.owner === undefined ? "" : ` of ${param.owner}`}`;
  const placeholder = `the placeholder {${param.name}} of the route path "${context.path}"`;
  if (param.shape === "list") {
    throw new ValueError(
      `${where} is a list, named like ${placeholder}, which holds one value: a list is read from the query, and the placeholder would be read by nothing. Declare one value (${param.name}: z.string()) to read the placeholder, or rename the parameter to read a list from the query.`,
    );
  }
  const source = SOURCE_NAMES[param.location];
  throw new ValueError(
    `${where} reads ${source}, but it is named like ${placeholder}, which no parameter reads. Read the placeholder with it (${param.name}: p.Path(z.string())), or rename the parameter.`,
  );
}

const SOURCE_NAMES: Record<Location, string> = {
  path: "another placeholder",
  query: "the query",
  header: "a header",
  cookie: "a cookie",
  body: "the body",
};

/**
 * Completes the names a strict model of each source takes as known: those every parameter of that
 * source reads. The first strict model of a source is handed the other keys (one issue each); a
 * second would report them again, and a model that is the whole JSON body is strict by itself.
 */
function knowNames(byLocation: Record<Location, ParamDescription[]>): void {
  for (const location of LOCATIONS) {
    let handed = false;
    for (const param of byLocation[location]) {
      if (param.knownNames === undefined) continue;
      if (handed || param.wholeBody) {
        param.knownNames = undefined;
        continue;
      }
      const read = byLocation[location].flatMap((other) => other.fields.map((field) => field.wireName));
      param.knownNames = new Set([...param.knownNames, ...read]);
      handed = true;
    }
  }
}
