import type { HttpRequest } from "../../http/request.ts";
import { ResponseDraft } from "../../http/response-draft.ts";
import type { ArgumentSource, DependencyDescription, EndpointDescription } from "../description.ts";
import { DependencyScope } from "./dependency-scope.ts";
import { type ResolveOptions, resolveParams } from "./resolve-params.ts";

type Values = Record<string, unknown>;

/**
 * Gets the handler's values, or the error that refused the request, the request's generators, and
 * what its dependencies add to the answer (`p.Response()`).
 */
export type ValuesCallback = (
  error: unknown,
  values: Values | undefined,
  // Optional, so that a route without dependencies hands the same callback to `resolveParams`.
  scope?: DependencyScope,
  draft?: ResponseDraft,
  /** What each dependency resolved to, by its place: a rate limit finds the principal there. */
  results?: readonly unknown[],
) => void;

const NO_ARGS: Values = Object.freeze({}) as Values;

/**
 * Resolves an endpoint that has dependencies: its schemes authenticate first (an unauthenticated
 * request gets its 401 before any 422), then its parameters and its dependencies' are read and
 * validated in one go, then each dependency resolves once, after those it uses. Synchronous while
 * nothing returns a promise; `done` is called once.
 */
export function resolveDependencies(
  description: EndpointDescription,
  request: HttpRequest,
  options: ResolveOptions,
  done: ValuesCallback,
): void {
  new Resolution(description, request, options, done).authenticate(0);
}

class Resolution {
  private readonly nodes: readonly DependencyDescription[];
  private readonly results: unknown[];
  private values: Values = NO_ARGS;
  private scope: DependencyScope | undefined;
  private draft: ResponseDraft | undefined;
  private readonly description: EndpointDescription;
  private readonly request: HttpRequest;
  private readonly options: ResolveOptions;
  private readonly done: ValuesCallback;

  constructor(
    description: EndpointDescription,
    request: HttpRequest,
    options: ResolveOptions,
    done: ValuesCallback,
  ) {
    this.description = description;
    this.nodes = description.dependencies!;
    this.results = new Array(this.nodes.length);
    this.request = request;
    this.options = options;
    this.done = done;
  }

  /** Runs the schemes from `start` on, then reads the parameters. */
  authenticate(start: number): void {
    const next = this.run(start, "authenticate");
    if (next === PENDING) return;
    resolveParams(this.description, this.request, this.options, (error, values) => {
      if (error !== undefined) this.fail(error);
      else {
        this.values = values!;
        this.resolve(0);
      }
    });
  }

  /** Runs the dependencies from `start` on, then hands the handler its values. */
  resolve(start: number): void {
    if (this.run(start, "resolve") === PENDING) return;
    let values: Values;
    try {
      values = this.argumentsOf(this.description.handlerArgs!);
    } catch (error) {
      this.fail(error);
      return;
    }
    this.done(undefined, values, this.scope, this.draft, this.results);
  }

  /**
   * Resolves the nodes of one phase from `start`; returns PENDING when one awaits something (it then
   * carries on by itself) or failed (`done` has the error), else DONE.
   */
  private run(start: number, phase: DependencyDescription["phase"]): typeof PENDING | typeof DONE {
    for (let index = start; index < this.nodes.length; index++) {
      const node = this.nodes[index]!;
      if (node.phase !== phase) continue;
      let result: unknown;
      try {
        const args = node.args.length === 0 ? NO_ARGS : this.argumentsOf(node.args);
        result = node.run(this.request, args);
        if (node.style !== "return") result = this.enter(node, result);
      } catch (error) {
        this.fail(error);
        return PENDING;
      }
      if (isThenable(result)) {
        result.then(
          (value) => {
            this.results[index] = value;
            if (phase === "authenticate") this.authenticate(index + 1);
            else this.resolve(index + 1);
          },
          (error: unknown) => this.fail(error),
        );
        return PENDING;
      }
      this.results[index] = result;
    }
    return DONE;
  }

  /** The value a generator yields first; it is closed after the answer. */
  private enter(node: DependencyDescription, generator: unknown): unknown {
    this.scope ??= new DependencyScope(this.request);
    const scope = this.scope;
    if (node.style === "generator") {
      const iterator = generator as Generator;
      scope.add(iterator, node.label, node.scope);
      return firstYield(iterator.next(), node.label);
    }
    const iterator = generator as AsyncGenerator;
    scope.add(iterator, node.label, node.scope);
    return iterator.next().then((step) => firstYield(step, node.label));
  }

  private fail(error: unknown): void {
    this.done(error, undefined, this.scope, undefined, this.results);
  }

  private argumentsOf(sources: readonly ArgumentSource[]): Values {
    const args: Values = {};
    for (const source of sources) {
      args[source.name] =
        source.key !== undefined
          ? this.values[source.key]
          : source.node !== undefined
            ? this.results[source.node]
            : source.context === "response"
              ? this.responseDraft()
              : source.context;
    }
    return args;
  }

  /** The request's one `ResponseDraft`, made when a dependency first asks for it. */
  private responseDraft(): ResponseDraft {
    if (this.draft === undefined) this.draft = new ResponseDraft();
    return this.draft;
  }
}

const PENDING = 0;
const DONE = 1;

function firstYield(step: IteratorResult<unknown>, label: string): unknown {
  if (step.done)
    throw new TypeError(`${label} returned without yielding its value; a generator dependency yields once.`);
  return step.value;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === "function";
}
