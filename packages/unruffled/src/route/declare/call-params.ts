// An endpoint's parameters as a call gives them (`testClient(app).call(endpoint, params)`): what a
// caller sends for each declaration, which of them it must send, and those its dependencies read.
// Read from one endpoint's declarations only, so an editor never walks the whole route table. The
// endpoint's type names these (its type-level `~call`), so they live beside the declarations.
import type { z } from "zod";
import type { DependsParam, FileParam, MarkerKind, Param, ParamDeclarations } from "./markers.ts";
import type { ModelWireInput } from "./model-types.ts";

/** A file the test client uploads: its name, its bytes (or text), and its media type. */
export interface TestFile {
  filename: string;
  content: string | Uint8Array;
  /** Default `application/octet-stream`. */
  contentType?: string;
}

/**
 * What a caller gives for one declaration: the schema's input type (a date also as its ISO string,
 * which the server converts), or files to upload (at least one for a required list, as the server
 * answers 422 for none). The common case (a `p.*` marker) is tested first: this type is computed
 * for every parameter of every call. The marker's parts are read as its members (`D["schema"]`),
 * not inferred (`Param<MarkerKind, infer S, boolean>`): an inference per declaration cost more
 * (bench:types, with the same reading in `MayOmit` and `DeclaredAnswer`: a tenth of a call's
 * allocations).
 */
export type ParamInput<D> =
  D extends Param<MarkerKind, any, boolean>
    ? ModelWireInput<D["schema"]>
    : D extends FileParam
      ? D["list"] extends true
        ? D["optional"] extends true
          ? readonly TestFile[]
          : readonly [TestFile, ...TestFile[]]
        : TestFile
      : D extends z.core.SomeType
        ? ModelWireInput<D>
        : never;

/**
 * True when the request may leave the parameter out: it has a default, its schema allows none, or
 * it is a model read from the query, headers or cookies whose fields may all be left out (the
 * server then reads an empty model).
 */
type MayOmit<D> =
  D extends Param<MarkerKind, any, boolean>
    ? D["hasDefault"] extends true
      ? true
      : undefined extends ModelWireInput<D["schema"]>
        ? true
        : D["kind"] extends "query" | "header" | "cookie"
          ? {} extends ModelWireInput<D["schema"]>
            ? true
            : false
          : false
    : D extends FileParam
      ? D["optional"]
      : D extends z.core.SomeType
        ? undefined extends ModelWireInput<D>
          ? true
          : false
        : false;

/** A declaration not read from the request: a dependency's or a scheme's value, or a context value. */
type NotOnWire = { readonly kind: "depends" | "security" | "security-scopes" | "response" };

/**
 * The names a call must give for declaration `D` named `K`: `K` when it is read on the wire with no
 * default and a schema that does not accept `undefined`; for a dependency, the names its own
 * declarations require. Read per declaration, not per endpoint: a declaration's type (such as
 * `p.Path(z.int())`) recurs across endpoints, and a conditional type is computed once per argument.
 */
type RequiredKey<K, D> = D extends NotOnWire
  ? D extends DependsParam<any, any>
    ? DependencyRequiredKeys<D["dependency"]>
    : never
  : MayOmit<D> extends true
    ? never
    : K;

/**
 * The names a dependency's declarations require; none for a dependency typed `any` (as in
 * `ParamDeclarations` itself: without the guard its parameters were `ParamDeclarations` again, endlessly).
 */
type DependencyRequiredKeys<Dependency> = 0 extends 1 & Dependency
  ? never
  : Dependency extends { readonly params: infer Q extends ParamDeclarations }
    ? RequiredKeys<Q>
    : never;

/** Each declaration's required names (`RequiredKey`), by parameter name. */
type RequiredKeyMap<P> = { [K in keyof P]-?: RequiredKey<K, P[K]> };

/**
 * The names of the parameters a call must give, its dependencies' included. `CallParams` and
 * `CallParamsArgument` write `RequiredKeyMap<P>[keyof P]` out instead of naming this alias: a union
 * made by an alias carries it (`RequiredKeys<{ … }>`), so each endpoint had its own union of the
 * same names, and its own `RequiredNames` of them; written out, the union is TypeScript's one union
 * of those names, and endpoints requiring the same names share `RequiredNames` (bench:types, routes
 * with a shared dependency: 4 % fewer allocations a call).
 */
type RequiredKeys<P> = RequiredKeyMap<P>[keyof P];

/**
 * The parameters a dependency declaration reads, each optional (`RequiredKeys` requires those it
 * must have), `{}` for any other declaration and for a dependency typed `any`.
 */
type DependencyParamsOf<D> = D extends DependsParam<any, any> ? DependencyCallParams<D["dependency"]> : {};

/** A dependency's parameters, each optional, with its own dependencies'; `{}` for a dependency typed `any`. */
type DependencyCallParams<Dependency> = 0 extends 1 & Dependency
  ? {}
  : Dependency extends { readonly params: infer Q extends ParamDeclarations }
    ? { [K in keyof Q]?: ParamInput<Q[K]> } & DependencyParams<Q>
    : {};

/**
 * The parameters the dependencies of `P` read, as one object type (`unknown` when it has none). The
 * dependency declarations are picked out of `P`'s first, so that the rest is computed once per set
 * of dependencies, not per endpoint (bench:types, routes with a shared dependency: 2 % fewer
 * allocations a call, the plain ones 0.6 % more).
 */
type DependencyParams<P> = Intersection<DependencyParamsOf<Extract<P[keyof P], DependsParam<any, any>>>>;

type Intersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void
  ? I
  : never;

/**
 * The required names as an object type. An alias of the names alone, not a mapped type written in
 * `CallParams`: endpoints whose calls require the same names share one (a mapped type written there
 * is built again for each endpoint).
 */
type RequiredNames<K extends PropertyKey> = { [Name in K]: unknown };

/**
 * The parameters of a call, keyed by parameter name, with those of the endpoint's dependencies;
 * those with defaults are optional. This type is computed for every endpoint called, so it is built
 * for few instantiations: one mapped type over the declarations gives every parameter's type,
 * optional (a declaration not read on the wire, such as `p.Depends`, becomes `?: never`), a second
 * requires the names a call must give (the dependencies' too), and the dependencies add their own
 * parameters' types. Sorting the keys into two mapped types of typed members instead cost a fifth
 * more instantiations per call (bench:types, routes with a shared dependency).
 */
export type CallParams<P extends ParamDeclarations> = {
  [K in keyof P]?: ParamInput<P[K]>;
} & RequiredNames<RequiredKeyMap<P>[keyof P]> &
  DependencyParams<P>;

/**
 * `undefined` when no name is required, with `void`: a call reads the parameters from the
 * endpoint's optional `~call` property, whose type is `X | undefined` anyway, and inferring from it
 * drops the `undefined`; `void` stays, and accepts `undefined` (the call without parameters, or
 * with `undefined`). An alias of the names alone, shared as `RequiredNames` is.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: the `void` is the one that survives the inference, as said above.
type UndefinedUnlessRequired<K> = [K] extends [never] ? undefined | void : never;

/**
 * The parameters argument: `undefined` too when every parameter may be left out. Decided from the
 * required names (`{} extends CallParams<P>` compared the whole parameters type: bench:types, 4 %
 * of a call's allocations). The conditional distributes over `P`, so `never` gives `never`
 * (`params: x as never`); `any`, which is not assignable to `never`, gives both branches: `any`.
 * Either way every endpoint's type stays assignable to `EndpointDefinition<any>` (a `void` to its
 * `any`). Guarding `any` explicitly (`0 extends 1 & P`) cost 3–5 % of a call's allocations.
 */
export type CallParamsArgument<P extends ParamDeclarations> = P extends never
  ? any
  : CallParams<P> | UndefinedUnlessRequired<RequiredKeyMap<P>[keyof P]>;
