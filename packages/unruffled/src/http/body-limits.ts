const MiB = 1024 * 1024;

/** Body limits a request reads with; the app passes its `LIMITS` settings. */
export interface BodyLimits {
  /** Largest JSON or text body, in bytes. */
  readonly body: number;
  /** Largest urlencoded form body, in bytes. */
  readonly form: number;
  /** Deepest nesting of a JSON body (default `DEFAULT_BODY_LIMITS.jsonDepth`). */
  readonly jsonDepth?: number;
  /** Most fields of an urlencoded form body (default `DEFAULT_BODY_LIMITS.fields`). */
  readonly fields?: number;
}

/** The body limits when the app sets none: 1 MiB bodies and forms, JSON 64 levels deep, 100 fields. */
export const DEFAULT_BODY_LIMITS: Required<BodyLimits> = {
  body: MiB,
  form: MiB,
  jsonDepth: 64,
  fields: 100,
};
