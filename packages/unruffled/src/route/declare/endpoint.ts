import type { z } from "zod";
import type { UploadFile } from "../../file/upload-file.ts";
import type { HttpRequest } from "../../http/request.ts";
import type { ResponseDraft } from "../../http/response-draft.ts";
import type { CallParamsArgument } from "./call-params.ts";
import type { HandlerResponse } from "./handler-response.ts";
import type {
  ContextParam,
  DependsParam,
  FileParam,
  MarkerKind,
  Param,
  ParamDeclarations,
  SecurityParam,
} from "./markers.ts";
import type { ModelOutput } from "./model-types.ts";
import type { ResponseClass, ResponseSpec } from "./response-spec.ts";
import type { SecurityScopes } from "./security-scheme.ts";

// The declarations live with the markers (call-params.ts reads them without reading endpoints).
export type { ParamDeclaration, ParamDeclarations } from "./markers.ts";

/**
 * The type a handler receives for one declaration. The common case (a `p.*` marker) is tested
 * first: this type is computed for every parameter of every endpoint.
 */
export type ParamValue<D> =
  D extends Param<MarkerKind, infer S extends z.core.SomeType, infer HasDefault>
    ? HasDefault extends true
      ? Exclude<ModelOutput<S>, undefined>
      : ModelOutput<S>
    : D extends z.core.SomeType
      ? ModelOutput<D>
      : D extends DependsParam<infer T, any>
        ? T
        : D extends SecurityParam<infer T>
          ? T
          : D extends ContextParam<"security-scopes">
            ? SecurityScopes
            : D extends ContextParam<"response">
              ? ResponseDraft
              : D extends FileParam<infer List, infer Optional>
                ? List extends true
                  ? UploadFile[]
                  : Optional extends true
                    ? UploadFile | undefined
                    : UploadFile
                : never;

/** The handler's second argument: every declared parameter, resolved, coerced and validated. */
export type ResolvedParams<P extends ParamDeclarations> = { -readonly [K in keyof P]: ParamValue<P[K]> };

/**
 * What an endpoint answers: a response class, or a list of one `ResponseSpec` per status code and
 * response classes (each documents the 200 answer of its kind:
 * `[HttpResponse, p.ResponseSpec({ code: "404", model: NotFound })]`).
 */
export type Returns = ResponseClass | readonly (ResponseSpec | ResponseClass)[];

export interface EndpointConfig<
  P extends ParamDeclarations,
  R extends HttpRequest,
  Ret extends Returns = Returns,
> {
  /** A name for error messages and the default operation id, when no route name is given. */
  name?: string;
  summary?: string;
  description?: string;
  deprecated?: boolean;
  tags?: string[];
  params?: P;
  /**
   * Required (the seed's return annotation): a response class, or a list of `p.ResponseSpec` and
   * response classes. Its models also type the answers of `testClient(app).call(endpoint, ...)`.
   */
  returns: Ret;
  /**
   * Returns a response; with `ResponseSpec` models, a JSON body must match one of them (`HandlerResponse`).
   * NoInfer: `returns` alone gives `Ret`, and the checker does not walk the answer through every
   * branch of `HandlerResponse` looking for another inference.
   */
  handler(
    request: R,
    params: ResolvedParams<P>,
  ): NoInfer<HandlerResponse<Ret> | Promise<HandlerResponse<Ret>>>;
}

/**
 * An endpoint as declared; routes analyse it when they are built. `EndpointConfig`'s members, read
 * only; written out, not as `Readonly<EndpointConfig>`, so that each endpoint's type is a plain
 * interface rather than a mapped type the checker resolves member by member.
 */
export interface EndpointDefinition<
  P extends ParamDeclarations = ParamDeclarations,
  R extends HttpRequest = HttpRequest,
  Ret extends Returns = Returns,
> {
  readonly kind: "endpoint";
  readonly name?: string;
  readonly summary?: string;
  readonly description?: string;
  readonly deprecated?: boolean;
  readonly tags?: string[];
  readonly params?: P;
  readonly returns: Ret;
  readonly handler: EndpointConfig<P, R, Ret>["handler"];
  /**
   * Type-level only, never set: the parameters `testClient(app).call()` takes for this endpoint (its
   * answers are typed from `returns`). Written here so that an endpoint's call parameters are
   * computed once, with the endpoint's type, and every call reads them as they are: inferring them
   * at each call site from the declarations made the checker build them again, declaration by
   * declaration, per call. A property holding the type, not a method taking it: a call infers it
   * from the property's type directly, without instantiating a signature per endpoint (bench:types,
   * 4 % fewer allocations a call).
   */
  readonly "~call"?: CallParamsArgument<P>;
}

/**
 * Declares an endpoint: its parameters, what it returns, and the handler. The handler's parameter
 * types are inferred from the declarations.
 *
 * @example
 * export const hello = endpoint({
 *   params: { name: p.Query(z.string(), { default: "World" }) },
 *   returns: PlainTextResponse,
 *   handler: (_request, { name }) => new PlainTextResponse(`Hello, ${name}!`),
 * });
 */
export function endpoint<
  const P extends ParamDeclarations = {},
  R extends HttpRequest = HttpRequest,
  const Ret extends Returns = Returns,
>(config: EndpointConfig<P, R, Ret>): EndpointDefinition<P, R, Ret> {
  return Object.freeze({ ...config, kind: "endpoint" as const });
}
