import type { z } from "zod";
import { RequestValidationError } from "../../errors.ts";
import type { UploadFileSummary } from "../../file/upload-file.ts";
import type { UploadLimits } from "../../file/upload-limits.ts";
import type { HttpRequest } from "../../http/request.ts";
import { parseJsonBody, parseJsonText } from "../../http/request.ts";
import type { EndpointDescription, ParamDescription, WireField } from "../description.ts";
import { infiniteNumbers, outOfRangeIssue } from "../wire/json-numbers.ts";
import type { StringSource } from "../wire/string-source.ts";
import { checkContentCoding, checkJsonMediaType, type ReadBody, readFormBody } from "./read-body.ts";
import { inSourceOrder, type RefusedKey, toValidationIssues, withRefusedKeys } from "./validation-issues.ts";

type Values = Record<string, unknown>;

/**
 * Where the gathered input keeps the keys a strict model refuses outside Zod (spelt as a field's
 * key, which Zod would take for that field); a symbol, which the validator never reads.
 */
const REFUSED_KEYS = Symbol("refused keys");

type Gathered = Values & { [REFUSED_KEYS]?: RefusedKey[] };

const NO_VALUES: Values = Object.freeze({}) as Values;

/** Gets the values of an endpoint's parameters, or the error that refused them. */
export type ParamsCallback = (error: unknown, values: Values | undefined) => void;

/** What the app reads parameters with. */
export interface ResolveOptions {
  uploads: UploadLimits;
  /**
   * False when the app's request class defines its own `query`: query parameters are then read
   * through it, never from the raw query string.
   */
  rawQuery: boolean;
}

/**
 * Resolves an endpoint's parameters from a request: gathers the raw values, coerces strings, and
 * validates everything in one Zod call; `done` is called once. At once when the endpoint reads no
 * body, and with a JSON body as soon as it has arrived, without a promise on the way.
 */
export function resolveParams(
  description: EndpointDescription,
  request: HttpRequest,
  options: ResolveOptions,
  done: ParamsCallback,
): void {
  if (description.validator === undefined) {
    done(undefined, NO_VALUES);
    return;
  }
  switch (description.bodyFormat) {
    case undefined:
      validateThen(description, request, options, undefined, done);
      return;
    case "json": {
      // Bytes where the body source reads bytes (Node: no promise), text where it reads text more
      // cheaply (Bun): the callback takes either.
      const parsed = (error: Error | undefined, body: Buffer | string | undefined) => {
        if (error !== undefined) {
          done(error, undefined);
          return;
        }
        let json: unknown;
        try {
          const depth = request.limits.jsonDepth;
          json = typeof body === "string" ? parseJsonText(body, depth) : parseJsonBody(body!, depth);
        } catch (parseError) {
          done(parseError, undefined);
          return;
        }
        validateThen(description, request, options, { json, jsonSource: body }, done);
      };
      // A body the server read ahead (Bun's route for it) was read because its media type is JSON's
      // (FixedRoute.readsBodyOf, with nothing in between): not read and checked again.
      if (request.bodySource.collectHeldText?.(parsed) === true) return;
      try {
        checkContentCoding(request.header("content-encoding"));
        checkJsonMediaType(request.contentType);
      } catch (error) {
        done(error, undefined);
        return;
      }
      if (request.bodySource.readText === undefined) request.collectBody(parsed);
      else request.collectText(parsed);
      return;
    }
    default:
      readFormBody(description, request, options.uploads).then(
        (body) => validateThen(description, request, options, body, done),
        (error) => done(error, undefined),
      );
  }
}

/**
 * The parameters of an endpoint that reads no body, returned rather than passed to a callback
 * (what `resolveParams` does synchronously for it); throws what refused them.
 *
 * @example const values = resolveParamsNow(description, request, options); // description.bodyFormat === undefined
 */
export function resolveParamsNow(
  description: EndpointDescription,
  request: HttpRequest,
  options: ResolveOptions,
): Values {
  if (description.validator === undefined) return NO_VALUES;
  return validate(description, gather(description, request, options, undefined));
}

/** Gathers and validates; the outcome goes to `done`, outside the `try` so that it is called once. */
function validateThen(
  description: EndpointDescription,
  request: HttpRequest,
  options: ResolveOptions,
  body: ReadBody | undefined,
  done: ParamsCallback,
): void {
  let values: Values;
  try {
    values = validate(description, gather(description, request, options, body), body?.jsonSource);
  } catch (error) {
    done(error, undefined);
    return;
  }
  done(undefined, values);
}

function gather(
  description: EndpointDescription,
  request: HttpRequest,
  options: ResolveOptions,
  body: ReadBody | undefined,
): Gathered {
  // One flat object by parameter name, the shape of the validator: no object per location to build,
  // and Zod's output is the handler's values as they are.
  const input: Gathered = {};
  const { byLocation, queryReader } = description;
  if (byLocation.path.length > 0) gatherStrings(byLocation.path, request.pathParams, false, false, input);
  if (queryReader !== undefined) {
    // The reader gives up (undefined) where only request.query's own parsing is sure to be right.
    const query = (options.rawQuery ? queryReader.read(request.queryString) : undefined) ?? request.query;
    gatherStrings(byLocation.query, query, false, false, input);
  }
  if (byLocation.header.length > 0)
    gatherStrings(byLocation.header, request.headers as StringSource, true, false, input);
  if (byLocation.cookie.length > 0) gatherStrings(byLocation.cookie, request.cookies, false, false, input);
  if (byLocation.body.length > 0 && body !== undefined) gatherBody(byLocation.body, body, input);
  return input;
}

/**
 * Writes each parameter's raw value (coerced from its string) into `values`, under its name.
 * `emptyIsAbsent`: a form's `""` is a value not sent (browsers send every unfilled input), as FastAPI
 * reads a form field; in the query, a header or a cookie it is a value.
 */
function gatherStrings(
  params: readonly ParamDescription[],
  source: StringSource,
  commaLists: boolean,
  emptyIsAbsent: boolean,
  values: Gathered,
): void {
  for (const param of params) {
    if (param.shape === "model") {
      const model: Values = {};
      for (const field of param.fields) {
        const value = readString(source, field, commaLists, emptyIsAbsent);
        if (value !== undefined) model[field.key!] = value;
      }
      if (param.knownNames !== undefined) addExtraKeys(source, param, model, true, values);
      values[param.key] = model;
    } else {
      values[param.key] = readString(source, param.fields[0]!, commaLists, emptyIsAbsent);
    }
  }
}

/**
 * Hands a strict model the keys of its source that no parameter reads, so that Zod refuses each as it
 * refuses extras; a key spelt as one of its fields' keys (not its wire name) would be taken for that
 * field, so it is refused beside the model instead (`values[REFUSED_KEYS]`).
 */
function addExtraKeys(
  source: Readonly<Record<string, unknown>>,
  param: ParamDescription,
  model: Values,
  fromText: boolean,
  values: Gathered,
): void {
  const knownNames = param.knownNames!;
  for (const name of Object.keys(source)) {
    const raw = source[name];
    if (raw === undefined || knownNames.has(name)) continue;
    // Text arrives as a string or, repeated, a list (a multipart field always as a list): one value
    // is quoted as itself. A JSON value is quoted as sent.
    const value = fromText && Array.isArray(raw) ? (raw.length === 1 ? raw[0] : raw.slice()) : raw;
    if (param.fields.some((field) => field.key === name)) {
      refuseBeside(values, { param, name, input: value });
      continue;
    }
    // Defined, not assigned: a key named __proto__ is a key like any other, never the model's prototype.
    Object.defineProperty(model, name, { value, enumerable: true, writable: true, configurable: true });
  }
}

/**
 * Hands a strict form model the files of a multipart body that no parameter reads, quoted by their
 * summaries (their bytes were never kept); beside a text field of the same name, after its values.
 */
function addUnreadFiles(
  unreadFiles: Readonly<Record<string, UploadFileSummary[]>>,
  param: ParamDescription,
  model: Values,
  values: Gathered,
): void {
  for (const name of Object.keys(unreadFiles)) {
    if (param.knownNames!.has(name)) continue;
    const files = unreadFiles[name]!;
    const refusedBeside = param.fields.some((field) => field.key === name);
    const entry = refusedBeside
      ? values[REFUSED_KEYS]?.find((refused) => refused.param === param && refused.name === name)
      : undefined;
    const text = refusedBeside ? entry?.input : Object.hasOwn(model, name) ? model[name] : undefined;
    const value =
      text === undefined ? (files.length === 1 ? files[0] : files.slice()) : [...[text].flat(), ...files];
    if (entry !== undefined) entry.input = value;
    else if (refusedBeside) refuseBeside(values, { param, name, input: value });
    else Object.defineProperty(model, name, { value, enumerable: true, writable: true, configurable: true });
  }
}

function refuseBeside(values: Gathered, key: RefusedKey): void {
  const refused = values[REFUSED_KEYS];
  if (refused === undefined) values[REFUSED_KEYS] = [key];
  else refused.push(key);
}

/**
 * One wire name's value: the last of repeated keys for a scalar, all of them for a list. Under
 * `emptyIsAbsent`, a scalar whose value is `""` is not sent; a list keeps its empty items.
 */
function readString(
  source: StringSource,
  field: WireField,
  commaLists: boolean,
  emptyIsAbsent: boolean,
): unknown {
  const raw = source[field.wireName];
  if (raw === undefined) return undefined;
  const coerce = field.coerce;
  if (field.list) {
    let items: readonly string[] = typeof raw === "string" ? [raw] : raw;
    // Repeated headers arrive joined by commas (RFC 9110 §5.3).
    if (commaLists) items = items.flatMap((item) => item.split(",").map((part) => part.trim()));
    return coerce ? items.map(coerce) : items.slice();
  }
  const value = typeof raw === "string" ? raw : raw[raw.length - 1]!;
  if (emptyIsAbsent && value === "") return undefined;
  return coerce ? coerce(value) : value;
}

function gatherBody(params: readonly ParamDescription[], body: ReadBody, values: Gathered): void {
  if (body.fields !== undefined || body.files !== undefined) {
    const fields = body.fields ?? {};
    const formParams = params.filter((param) => param.marker === "form");
    gatherStrings(formParams, fields, false, true, values);
    if (body.unreadFiles !== undefined) {
      for (const param of formParams) {
        if (param.knownNames !== undefined)
          addUnreadFiles(body.unreadFiles, param, values[param.key] as Values, values);
      }
    }
    for (const param of params) {
      if (param.absentWhenEmpty === true && isEmpty(values[param.key] as Values))
        values[param.key] = undefined;
      if (param.marker !== "file") continue;
      const files = body.files?.[param.fields[0]!.wireName];
      values[param.key] = param.shape === "file-list" ? files : files?.[files.length - 1];
    }
    return;
  }
  const json = body.json;
  const isObject = typeof json === "object" && json !== null && !Array.isArray(json);
  for (const param of params) {
    if (param.wholeBody || (param.shape === "model" && !isObject)) {
      values[param.key] = json;
    } else if (param.shape === "model") {
      const model: Values = {};
      for (const field of param.fields) {
        if (Object.hasOwn(json as object, field.wireName))
          model[field.key!] = (json as Values)[field.wireName];
      }
      if (param.knownNames !== undefined) addExtraKeys(json as Values, param, model, false, values);
      values[param.key] = param.absentWhenEmpty === true && isEmpty(model) ? undefined : model;
    } else if (isObject) {
      const wireName = param.fields[0]!.wireName;
      values[param.key] = Object.hasOwn(json as object, wireName) ? (json as Values)[wireName] : undefined;
    }
    // Compiled at route build, and only for a schema that holds dates.
    if (param.readDates !== undefined) values[param.key] = param.readDates(values[param.key]);
  }
}

function isEmpty(model: Values): boolean {
  for (const _ in model) return false;
  return true;
}

function validate(description: EndpointDescription, input: Gathered, jsonSource?: Buffer | string): Values {
  const result = description.validator!.safeParse(input, { reportInput: true });
  const refused = input[REFUSED_KEYS];
  const outOfRange =
    jsonSource === undefined || !description.uncheckedNumbers
      ? undefined
      : infiniteNumberIssues(description, input, result);
  if (!result.success || refused !== undefined || outOfRange !== undefined) {
    const issues = result.success ? [] : result.error.issues;
    const all = refused === undefined ? issues : withRefusedKeys(description, issues, refused);
    const every = outOfRange === undefined ? all : inSourceOrder(description, all, outOfRange);
    throw new RequestValidationError(toValidationIssues(description, every, jsonSource));
  }
  return result.data as Values;
}

/**
 * The issues of the numbers past a double's range (`1e400`, which `JSON.parse` reads as Infinity)
 * that a schema of any value let through, as a number schema refuses them: the endpoint would get
 * Infinity, which an answer writes as `null`. Walks only the validated values of such parameters;
 * when validation failed, those of the ones that passed, validated alone (rule 16: every failure at once).
 */
function infiniteNumberIssues(
  description: EndpointDescription,
  input: Gathered,
  result: z.ZodSafeParseResult<unknown>,
): z.core.$ZodIssue[] | undefined {
  let issues: z.core.$ZodIssue[] | undefined;
  for (const param of description.byLocation.body) {
    if (param.uncheckedNumbers !== true) continue;
    let value: unknown;
    if (result.success) value = (result.data as Values)[param.key];
    else if (result.error.issues.some((issue) => issue.path[0] === param.key)) continue;
    else value = param.schema.safeParse(input[param.key]).data;
    for (const { path, value: number } of infiniteNumbers(value)) {
      if (issues === undefined) issues = [];
      issues.push(outOfRangeIssue([param.key, ...path], number));
    }
  }
  return issues;
}
