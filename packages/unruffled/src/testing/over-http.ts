import { HttpResponse } from "../http/response.ts";
import { Readable } from "../node-builtins.ts";
import type { EncodedRequest } from "./encode-request.ts";
import { TestResponse } from "./test-response.ts";

/**
 * Sends one encoded test request to a running server with `fetch`, and reads its answer as the
 * in-process client reads the app's: the whole body, or an event stream's events as they come
 * (`close()` hangs up). Redirects are answers, not followed, as in process.
 */
export async function requestOverHttp(
  baseUrl: string,
  method: string,
  encoded: EncodedRequest,
): Promise<TestResponse> {
  // fetch sets these from the URL and the body.
  const { host: _host, "content-length": _length, ...headers } = encoded.headers;
  const hangUp = new AbortController();
  const answer = await fetch(baseUrl + encoded.url, {
    method,
    headers,
    body: encoded.body === undefined ? null : new Uint8Array(encoded.body),
    redirect: "manual",
    signal: hangUp.signal,
  });
  // What came over the wire, as the response object a test may inspect (`response.response`).
  const received = (bytes: Buffer) => new HttpResponse(bytes, { status: answer.status });
  if (answer.body !== null && answer.headers.get("content-type")?.startsWith("text/event-stream")) {
    const stream = Readable.fromWeb(answer.body as import("node:stream/web").ReadableStream);
    // An abort after the end, or a stream the test closed, is no error of the test's.
    stream.on("error", () => {});
    const empty = Buffer.alloc(0);
    return new TestResponse(received(empty), answer.headers, empty, stream, () => hangUp.abort());
  }
  const bytes = Buffer.from(await answer.arrayBuffer());
  return new TestResponse(received(bytes), answer.headers, bytes);
}
