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
 * What declaration `D` named `K` adds to a call's parameters besides its own optional member: the
 * name `K` required (`RequiredName`) when it is read on the wire with no default and a schema that
 * does not accept `undefined`; for a dependency, its own parameters (`DependencyRest`); nothing
 * (`never`) otherwise. Read per declaration, not per endpoint: a declaration's type (such as
 * `p.Path(z.int())`) recurs across endpoints, and a conditional type is computed once per argument.
 */
type RestEntry<K extends PropertyKey, D> = D extends NotOnWire
  ? D extends DependsParam<any, any>
    ? DependencyRest<D["dependency"]>
    : never
  : MayOmit<D> extends true
    ? never
    : null extends ParamInput<D>
      ? RequiredNullableName<K>
      : RequiredName<K>;

/**
 * One required name, as an object type: one per name, shared by every endpoint that requires it.
 * Typed `{}`, not `unknown`: intersected with the parameter's optional member (`id?: number`, read
 * as `number | undefined`) it takes the `undefined` out, as the server answers 422 for a required
 * parameter left undefined. `{}` rather than `{} | null` for every name whose schema refuses `null`:
 * the intersection then has two cases to reduce, not four (bench:types: 0.3 % fewer allocations a
 * call).
 */
type RequiredName<K extends PropertyKey> = { [Name in K]: {} };

/** A required name whose schema accepts `null`: `{} | null` keeps the `null` in the intersection. */
type RequiredNullableName<K extends PropertyKey> = { [Name in K]: {} | null };

/**
 * A dependency's parameters, with the names they require and its own dependencies' parameters, as
 * one object type; none for a dependency typed `any` (as in `ParamDeclarations` itself: without the
 * guard its parameters were `ParamDeclarations` again, endlessly). Computed once per dependency, and
 * flattened then (a mapped type over the intersection), so that each endpoint's `CallParams` finds a
 * dependency's parameter in one member of its intersection, not in two to be merged per endpoint
 * (bench:types, routes with a shared dependency: 3 % fewer allocations a call).
 */
type DependencyRest<Dependency> = 0 extends 1 & Dependency
  ? never
  : Dependency extends { readonly params: infer Q extends ParamDeclarations }
    ? { [K in keyof Q]?: ParamInput<Q[K]> } & Intersection<RestMap<Q>[keyof Q]> extends infer T
      ? { [K in keyof T]: T[K] }
      : never
    : never;

/** Each declaration's `RestEntry`, by parameter name. */
type RestMap<P> = { [K in keyof P]-?: RestEntry<K, P[K]> };

/**
 * The required names and the dependencies' parameters of a call, as one intersection; `unknown`
 * when there are none. Written out where it is used (`Intersection<RestMap<P>[keyof P]>`), not as
 * an alias: a union an alias makes carries the alias and its arguments, so each endpoint had a union
 * of its own; written out, the union of the same entries is one type, and so is its intersection:
 * endpoints that require the same names and use the same dependencies share it, and it is computed
 * once (bench:types, against one mapped type of the required names and the dependencies picked out
 * of `P[keyof P]`: 3 % fewer allocations a call, 4 % with a shared dependency).
 */
type Intersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void
  ? I
  : never;

/**
 * The parameters of a call, keyed by parameter name, with those of the endpoint's dependencies;
 * those with defaults are optional. This type is computed for every endpoint called, so it is built
 * for few instantiations: one mapped type over the declarations gives every parameter's type,
 * optional (a declaration not read on the wire, such as `p.Depends`, becomes `?: never`); it is the
 * endpoint's own type, which messages name (`CallParams<{ … }>`). The required names and the
 * dependencies' parameters come from entries shared across endpoints (`RestEntry`). Sorting the keys
 * into two mapped types of typed members instead cost a fifth more instantiations per call
 * (bench:types, routes with a shared dependency).
 */
export type CallParams<P extends ParamDeclarations> = {
  [K in keyof P]?: ParamInput<P[K]>;
} & Intersection<RestMap<P>[keyof P]>;

/**
 * `undefined` when no name is required (`T` is the rest of `CallParams`, shared across endpoints,
 * so this is decided once for each), with `void`: a call reads the parameters from the endpoint's
 * optional `~call` property, whose type is `X | undefined` anyway, and inferring from it drops the
 * `undefined`; `void` stays, and accepts `undefined` (the call without parameters, or with
 * `undefined`).
 */
// biome-ignore lint/suspicious/noConfusingVoidType: the `void` is the one that survives the inference, as said above.
type UndefinedIfOmittable<T> = {} extends T ? undefined | void : never;

/**
 * The parameters argument: `undefined` too when every parameter may be left out. The conditional
 * distributes over `P`, so `never` gives `never` (`params: x as never`); `any`, which is not
 * assignable to `never`, gives both branches: `any`. Either way every endpoint's type stays
 * assignable to `EndpointDefinition<any>` (a `void` to its `any`). Guarding `any` explicitly
 * (`0 extends 1 & P`) cost 3–5 % of a call's allocations.
 */
export type CallParamsArgument<P extends ParamDeclarations> = P extends never
  ? any
  : CallParams<P> | UndefinedIfOmittable<Intersection<RestMap<P>[keyof P]>>;
