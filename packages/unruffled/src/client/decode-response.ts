import { failureReason } from "./failure-reason.ts";
import type { OperationPlan } from "./operation-plan.ts";
import type { Answer, DecodeFailure, EventsAnswer, NetworkFailure, UndocumentedStatus } from "./results.ts";
import { readServerEvents } from "./server-events.ts";

type Decoded =
  | Answer<number, string | null, unknown>
  | EventsAnswer<number, unknown>
  | UndocumentedStatus
  | DecodeFailure
  | NetworkFailure;

/**
 * Reads an answer as the operation documents its status: JSON parsed, text as text, an event
 * stream as events, anything else as a Blob. A status it does not document, or a body that is not
 * what it documents, is a branch of its own; nothing here throws.
 */
export async function decodeResponse(
  plan: OperationPlan,
  response: Response,
  signal: AbortSignal | undefined,
): Promise<Decoded> {
  const status = response.status;
  const contentType = mediaTypeOf(response.headers.get("content-type"));
  const documented = plan.answers[String(status)];
  try {
    if (documented === undefined) {
      const text = await response.text();
      return { kind: "undocumented", status, contentType, body: looseBody(text, contentType), response };
    }
    if (documented.length === 0) {
      const text = await response.text();
      return { kind: "documented", status, contentType, body: text === "" ? undefined : text, response };
    }
    if (contentType === null || !documented.includes(contentType)) {
      const text = await response.text();
      const expected = documented.join(" or ");
      const message = `The ${status} answer is ${contentType ?? "without a content type"}, not ${expected} as documented.`;
      return { kind: "decode-failure", status, contentType, text, message, response };
    }
    if (contentType === "text/event-stream") {
      const events = readServerEvents<unknown>(response.body, signal);
      return { kind: "documented", status, contentType, events, response };
    }
    if (isJson(contentType)) {
      const text = await response.text();
      try {
        return { kind: "documented", status, contentType, body: JSON.parse(text), response };
      } catch {
        const message = `The ${status} answer is not JSON, as its content type ${contentType} says.`;
        return { kind: "decode-failure", status, contentType, text, message, response };
      }
    }
    const body = contentType.startsWith("text/") ? await response.text() : await response.blob();
    return { kind: "documented", status, contentType, body, response };
  } catch (error) {
    return networkFailure(error, signal);
  }
}

/** A request that got no answer, or whose body could not be read to the end. */
export function networkFailure(error: unknown, signal: AbortSignal | undefined): NetworkFailure {
  const aborted = signal?.aborted === true;
  const message = aborted ? "The call was aborted." : `The request failed: ${failureReason(error)}`;
  return { kind: "network-failure", aborted, error, message };
}

/** `application/json; charset=utf-8` → `application/json`. */
function mediaTypeOf(header: string | null): string | null {
  if (header === null) return null;
  const media = header.split(";", 1)[0]!.trim().toLowerCase();
  return media === "" ? null : media;
}

function isJson(mediaType: string): boolean {
  return mediaType === "application/json" || mediaType.endsWith("+json");
}

function looseBody(text: string, contentType: string | null): unknown {
  if (text === "") return undefined;
  if (contentType !== null && isJson(contentType)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}
