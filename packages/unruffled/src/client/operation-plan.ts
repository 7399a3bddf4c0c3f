// What a generated client knows of each operation at run time: plain data written by
// `unruffled client` from the route's description, read here to place each value on the wire.

/** Where the server reads a parameter (`body` covers JSON, form and multipart). */
export type ParamLocation = "path" | "query" | "header" | "cookie" | "body";

/** One declared parameter: the name the caller gives it under, and the wire names it fills. */
export interface ParamPlan {
  /** The name the call takes it under: the endpoint's (or its dependency's) parameter name. */
  readonly name: string;
  readonly in: ParamLocation;
  /** A scalar, list or file: the one name it is sent under (a header's in lower case). */
  readonly wire?: string;
  /** A model: its fields' keys and the wire name each is sent under. */
  readonly fields?: Readonly<Record<string, string>>;
  /** A JSON model that is the whole body. */
  readonly whole?: true;
  /** A file or a list of files (multipart). */
  readonly file?: true;
}

/** One operation: where it is served, what it reads, and the media types of each documented status. */
export interface OperationPlan {
  readonly method: string;
  /** The path with `{name}` placeholders, as the route declares it. */
  readonly path: string;
  readonly params: readonly ParamPlan[];
  readonly body?: "json" | "form" | "multipart";
  /** Every documented status, with the media types its answers may have (empty: no body). */
  readonly answers: Readonly<Record<string, readonly string[]>>;
}
