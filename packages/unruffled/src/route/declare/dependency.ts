import type { HttpRequest } from "../../http/request.ts";
import type { ParamDeclarations, ResolvedParams } from "./endpoint.ts";
import type { DependencyLike } from "./markers.ts";

/** What a dependency's `resolve` gives, once settled: a generator's one yield, a promise's value. */
export type Resolved<T> =
  T extends AsyncGenerator<infer Y, any, any> ? Y : T extends Generator<infer Y, any, any> ? Y : Awaited<T>;

/** How `resolve` hands over its value: returned (or a promise), or yielded with clean-up after it. */
export type ResolveStyle = "return" | "generator" | "async-generator";

/**
 * When a generator dependency's code after `yield` runs: `"request"` after the answer and after the
 * request's `afterResponse()` tasks; `"function"` as soon as the handler has answered, before the
 * answer is written (FastAPI's `Depends(scope="function")`).
 */
export type DependencyScopeName = "request" | "function";

export interface DependencyConfig<P extends ParamDeclarations, R extends HttpRequest, T> {
  /** How messages name it (default: the parameter it is first declared as). */
  name?: string;
  /** Its own parameters, with the same markers as an endpoint's, `p.Depends` included. */
  params?: P;
  /**
   * Its value: returned, a promise, or yielded once by a generator (`function*`, `async function*`)
   * whose code after `yield` runs once the answer is written; an error of the handler is thrown in
   * at the `yield`.
   */
  resolve(request: R, params: ResolvedParams<P>): T;
  /** False resolves it again at every use in a request, instead of once (default true). */
  cache?: boolean;
  /**
   * For a generator: `"function"` ends it before the answer is written (commit a transaction,
   * release a lock before the client hears "done"; what its clean-up throws is answered by the
   * exception handlers); `"request"` (the default) after the answer and the `afterResponse()` tasks.
   */
  scope?: DependencyScopeName;
}

/** A dependency as declared; routes analyse it with the endpoints that use it. */
export interface Dependency<
  P extends ParamDeclarations = ParamDeclarations,
  R extends HttpRequest = any,
  T = unknown,
> extends DependencyLike<T> {
  readonly kind: "dependency";
  readonly name: string | undefined;
  readonly params: P;
  readonly resolve: (request: R, params: ResolvedParams<P>) => unknown;
  readonly cache: boolean;
  readonly style: ResolveStyle;
  readonly scope: DependencyScopeName;
}

/**
 * Declares shared request logic: paging, the current user, a database transaction. An endpoint
 * (or another dependency) asks for its value with `p.Depends(d)`; its parameters are read,
 * documented and validated with the endpoint's, in the same single 422, and its value is
 * resolved once per request.
 *
 * @example
 * const paging = dependency({
 *   params: { page: p.Query(z.int(), { default: 1, ge: 1 }), size: p.Query(z.int(), { default: 10, le: 100 }) },
 *   resolve: (_request, { page, size }) => ({ offset: (page - 1) * size, limit: size }),
 * });
 * endpoint({ params: { paging: p.Depends(paging) }, ... }) // paging: { offset: number; limit: number }
 */
export function dependency<
  const P extends ParamDeclarations = {},
  R extends HttpRequest = HttpRequest,
  T = unknown,
>(config: DependencyConfig<P, R, T>): Dependency<P, R, Resolved<T>> {
  if (typeof config?.resolve !== "function") {
    throw new TypeError(`dependency(${config?.name ? `"${config.name}"` : ""}) needs a resolve function.`);
  }
  if (config.scope !== undefined && config.scope !== "request" && config.scope !== "function") {
    throw new TypeError(
      `dependency(${config.name ? `"${config.name}"` : ""}) has scope ${JSON.stringify(config.scope)}; give "request" or "function".`,
    );
  }
  return Object.freeze({
    kind: "dependency" as const,
    name: config.name,
    params: (config.params ?? {}) as P,
    resolve: config.resolve as Dependency<P, R>["resolve"],
    cache: config.cache !== false,
    style: styleOf(config.resolve),
    scope: config.scope ?? "request",
  });
}

// Generator functions are told apart by their constructors, which have no global names.
const GeneratorFunction = function* () {}.constructor;
const AsyncGeneratorFunction = async function* () {}.constructor;

function styleOf(resolve: Function): ResolveStyle {
  if (resolve instanceof AsyncGeneratorFunction) return "async-generator";
  if (resolve instanceof GeneratorFunction) return "generator";
  return "return";
}

/** True for what `dependency()` made. */
export function isDependency(value: unknown): value is Dependency {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Dependency;
  return (
    candidate.kind === "dependency" &&
    typeof candidate.resolve === "function" &&
    typeof candidate.params === "object" &&
    candidate.params !== null
  );
}
