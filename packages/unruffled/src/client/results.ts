// What a call resolves to. A call never rejects: every status is a branch, and so are an answer
// that cannot be read as documented and a request that never got an answer.
import type { ServerEvents } from "./server-events.ts";

/** A documented status with a body read as its media type says (JSON parsed, text as text). */
export interface Answer<Status extends number, ContentType extends string | null, Body> {
  readonly kind: "documented";
  readonly status: Status;
  readonly contentType: ContentType;
  readonly body: Body;
  readonly response: Response;
}

/** A documented event stream: its events, typed by the model, until the stream or the signal ends. */
export interface EventsAnswer<Status extends number, Data> {
  readonly kind: "documented";
  readonly status: Status;
  readonly contentType: "text/event-stream";
  readonly events: ServerEvents<Data>;
  readonly response: Response;
}

/** A status the operation does not document: the body as JSON when it is JSON, else as text. */
export interface UndocumentedStatus {
  readonly kind: "undocumented";
  readonly status: number;
  readonly contentType: string | null;
  readonly body: unknown;
  readonly response: Response;
}

/** A documented status whose body is not what the document says (another media type, or not JSON). */
export interface DecodeFailure {
  readonly kind: "decode-failure";
  readonly status: number;
  readonly contentType: string | null;
  /** The body as text, for the message or a log. */
  readonly text: string;
  readonly message: string;
  readonly response: Response;
}

/** No answer: the connection failed, or the call's signal aborted it (`aborted: true`). */
export interface NetworkFailure {
  readonly kind: "network-failure";
  readonly aborted: boolean;
  readonly error: unknown;
  readonly message: string;
}

/** The branches every call may take beside its documented answers. */
export type Unexpected = UndocumentedStatus | DecodeFailure | NetworkFailure;
