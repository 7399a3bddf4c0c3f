import { ValueError } from "../../errors.ts";
import { type Dependency, isDependency } from "../declare/dependency.ts";
import { ContextParam, DependsParam, SecurityParam } from "../declare/markers.ts";
import type { Overrides } from "../declare/overrides.ts";
import { type SecurityScheme, SecurityScopes } from "../declare/security-scheme.ts";
import type {
  ArgumentSource,
  DependencyDescription,
  ParamDescription,
  SecurityRequirement,
} from "../description.ts";
import { authenticate } from "../resolve/authenticate.ts";
import { describeParam, type ParamContext } from "./describe-param.ts";
import { WireNames } from "./wire-names.ts";

/** An endpoint's parameters with its dependencies', analysed together. */
export interface DependencyGraph {
  /** Every parameter read on the wire, in declaration order, each dependency's where it is used. */
  params: ParamDescription[];
  /** The dependencies and schemes, each after those it uses; empty when none. */
  dependencies: DependencyDescription[];
  /** The handler's values by name: a validated parameter, or a dependency's value. */
  handlerArgs: ArgumentSource[];
  security: SecurityRequirement[];
}

/** Who declares a parameter: the endpoint, or one of its dependencies. */
interface Owner {
  /** `dependency "paging"`; undefined for the endpoint. */
  label: string | undefined;
  /** How its parameters' messages start. */
  context: ParamContext;
  /** The scopes asked for on the way to it (`p.Security(…, { scopes })` above it), in order. */
  scopes: readonly string[];
}

/**
 * Analyses an endpoint's declarations and, through `p.Depends` and `p.Security`, every dependency
 * and scheme it uses, to any depth: once for the whole request path. The route's and the app's
 * dependencies (`path(…, { dependencies })`) come first; their values reach nobody. A parameter two
 * dependencies declare alike (the same marker, schema and options) is read once; the same name of
 * one source declared two ways is a `ValueError`, as is a dependency that depends on itself.
 *
 * @example buildDependencyGraph({ paging: p.Depends(paging), search: p.Query(z.string()) }, [], context, new Map())
 */
export function buildDependencyGraph(
  declared: Readonly<Record<string, unknown>>,
  routeDependencies: readonly unknown[],
  context: ParamContext,
  overrides: Overrides,
): DependencyGraph {
  const graph = new GraphBuilder(context, overrides);
  const endpoint: Owner = { label: undefined, context, scopes: [] };
  routeDependencies.forEach((item, index) => {
    graph.routeDependency(item, index);
  });
  const handlerArgs = Object.keys(declared).map((name) => graph.argument(endpoint, name, declared[name]));
  for (const requirement of graph.security.values())
    requirement.granted = new SecurityScopes(requirement.scopes);
  return {
    params: graph.params,
    dependencies: graph.nodes,
    handlerArgs,
    security: [...graph.security.values()],
  };
}

class GraphBuilder {
  readonly params: ParamDescription[] = [];
  readonly nodes: DependencyDescription[] = [];
  readonly security = new Map<SecurityScheme, SecurityRequirement>();
  private readonly securityNodes = new Map<SecurityScheme, number>();
  /** Each dependency's node by the scopes of its branch: one per distinct set, as FastAPI caches. */
  private readonly cached = new Map<Dependency, Map<string, number>>();
  private readonly visiting: { dependency: Dependency; label: string }[] = [];
  private readonly wireNames: WireNames;
  private readonly keys = new Set<string>();
  private readonly context: ParamContext;
  private readonly overrides: Overrides;

  constructor(context: ParamContext, overrides: Overrides) {
    this.context = context;
    this.overrides = overrides;
    this.wireNames = new WireNames(context.label);
  }

  /** An entry of `path(…, { dependencies })` or `createApp({ dependencies })`. */
  routeDependency(item: unknown, index: number): void {
    const where = `${this.context.label}, route dependency ${index + 1}`;
    if (item instanceof SecurityParam) this.securityNode(item, where, []);
    else if (item instanceof DependsParam)
      this.dependencyNode(item.dependency, undefined, where, item.scopes);
    else if (isDependency(item)) this.dependencyNode(item, undefined, where, []);
    else {
      throw new ValueError(
        `${where} is ${describe(item)}; give a dependency(...), p.Depends(...) or p.Security(...).`,
      );
    }
  }

  /** Where one declared parameter's value comes from, after describing what it reads. */
  argument(owner: Owner, name: string, declaration: unknown): ArgumentSource {
    const where = `${owner.context.label}, parameter "${name}"`;
    if (declaration instanceof DependsParam) {
      const scopes = joined(owner.scopes, declaration.scopes);
      return { name, node: this.dependencyNode(declaration.dependency, name, where, scopes) };
    }
    if (declaration instanceof SecurityParam)
      return { name, node: this.securityNode(declaration, where, owner.scopes) };
    if (declaration instanceof ContextParam) return this.contextArgument(owner, name, declaration, where);
    const described = describeParam(name, declaration, owner.context);
    const shared = this.wireNames.claim(described, declaration, owner.label);
    if (shared !== undefined) return { name, key: shared.key };
    described.owner = owner.label;
    described.key = this.freshKey(name, owner.label);
    this.params.push(described);
    return { name, key: described.key };
  }

  /** `p.SecurityScopes()` and `p.Response()`: given by the framework, to dependencies only. */
  private contextArgument(owner: Owner, name: string, param: ContextParam, where: string): ArgumentSource {
    if (owner.label === undefined) {
      throw new ValueError(
        `${where}: ${param.kind === "response" ? "p.Response()" : "p.SecurityScopes()"} is for a dependency's params; ${param.kind === "response" ? "the handler sets headers, cookies and the status on the response it returns" : "the endpoint's own scopes are its p.Security(…, { scopes })"}.`,
      );
    }
    return { name, context: param.kind === "response" ? "response" : new SecurityScopes(owner.scopes) };
  }

  private dependencyNode(
    declared: unknown,
    paramName: string | undefined,
    where: string,
    scopes: readonly string[],
  ): number {
    const dependency = this.overrides.get(declared as object) ?? declared;
    if (!isDependency(dependency)) {
      throw new ValueError(
        `${where}: p.Depends takes a dependency made by dependency({ resolve }), not ${describe(dependency)}.`,
      );
    }
    const scopeKey = scopes.join(" ");
    const known = dependency.cache ? this.cached.get(dependency)?.get(scopeKey) : undefined;
    if (known !== undefined) return known;
    const label = `dependency "${dependency.name ?? paramName ?? "unnamed"}"`;
    const cycle = this.visiting.findIndex((entry) => entry.dependency === dependency);
    if (cycle >= 0) {
      const chain = [...this.visiting.slice(cycle).map((entry) => entry.label), label].join(" → ");
      throw new ValueError(`${this.context.label}: ${label} depends on itself (${chain}); break the cycle.`);
    }
    this.visiting.push({ dependency, label });
    const owner: Owner = {
      label,
      context: { ...this.context, label: `${this.context.label}, ${label}` },
      scopes,
    };
    const params = dependency.params as Record<string, unknown>;
    const args = Object.keys(params).map((name) => this.argument(owner, name, params[name]));
    this.visiting.pop();
    const index =
      this.nodes.push({
        label,
        phase: "resolve",
        style: dependency.style,
        scope: dependency.scope ?? "request",
        args,
        run: dependency.resolve,
      }) - 1;
    if (dependency.cache) {
      const byScopes = this.cached.get(dependency) ?? new Map<string, number>();
      byScopes.set(scopeKey, index);
      this.cached.set(dependency, byScopes);
    }
    return index;
  }

  /** One node per scheme, however many uses: their scopes add up, and it is optional only if all are. */
  private securityNode(param: SecurityParam, where: string, branchScopes: readonly string[]): number {
    const scheme = param.scheme as SecurityScheme | undefined;
    if (scheme?.kind !== "security-scheme") {
      throw new ValueError(
        `${where}: p.Security takes a scheme from unruffled/security, not ${describe(scheme)}.`,
      );
    }
    const scopes = joined(branchScopes, param.scopes);
    const requirement = this.security.get(scheme);
    if (requirement !== undefined) {
      for (const scope of scopes) if (!requirement.scopes.includes(scope)) requirement.scopes.push(scope);
      requirement.optional &&= param.optional;
      return this.securityNodes.get(scheme)!;
    }
    const added: SecurityRequirement = {
      scheme,
      scopes: [...scopes],
      optional: param.optional,
      granted: NO_SCOPES,
    };
    this.security.set(scheme, added);
    const override = this.overrides.get(scheme);
    const index =
      override === undefined
        ? this.nodes.push({
            label: `security scheme "${scheme.name}"`,
            phase: "authenticate",
            style: "return",
            scope: "request",
            args: [],
            run: (request) => authenticate(added, request),
          }) - 1
        : this.dependencyNode(override, scheme.name, where, scopes);
    this.securityNodes.set(scheme, index);
    return index;
  }

  /** The parameter's name, unless another parameter holds it: then one naming its dependency. */
  private freshKey(name: string, owner: string | undefined): string {
    let key = owner === undefined || !this.keys.has(name) ? name : `${owner}.${name}`;
    for (let n = 2; this.keys.has(key); n++) key = `${owner ?? "endpoint"}.${name}#${n}`;
    this.keys.add(key);
    return key;
  }
}

const NO_SCOPES = new SecurityScopes();

/** The scopes of a branch, then those a use adds, each once. */
function joined(branch: readonly string[], added: readonly string[]): readonly string[] {
  if (added.length === 0) return branch;
  return [...new Set([...branch, ...added])];
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === "function") return `a function${value.name ? ` (${value.name})` : ""}`;
  if (typeof value === "object") return `an object (${Object.keys(value).slice(0, 3).join(", ") || "empty"})`;
  return JSON.stringify(value);
}
