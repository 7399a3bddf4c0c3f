import type { IncomingMessage } from "node:http";
import { HttpResponse } from "../http/response.ts";
import { httpRequest, https, PassThrough, type Readable } from "../node-builtins.ts";
import type { EncodedRequest } from "./encode-request.ts";
import { cutOff, TestResponse } from "./test-response.ts";

/**
 * Sends one encoded test request to a running server, and reads its answer as the in-process client
 * reads the app's: the whole body, or an event stream's events as they come (`close()` hangs up).
 * Node's HTTP client, not `fetch`, so that what goes over the socket is what the test wrote, as in
 * process: no `Accept-Encoding` it did not give (and a compressed body read as it came, not
 * decoded under its `Content-Encoding`), the path as written (dot segments too), a body with any
 * method. Redirects are answers, not followed.
 */
export function requestOverHttp(
  baseUrl: string,
  method: string,
  encoded: EncodedRequest,
): Promise<TestResponse> {
  const base = new URL(baseUrl);
  const send = base.protocol === "https:" ? https().request : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(
      {
        protocol: base.protocol,
        hostname: base.hostname,
        port: base.port,
        method,
        path: base.pathname.replace(/\/$/, "") + encoded.url,
        // The Host the test gave, else the server's, which Node's client adds after the others. A Host
        // given empty is sent empty: Node's client would put its own in place of an empty value.
        headers: encoded.headers,
        setHost: encoded.headers.host === undefined,
      },
      (incoming) => {
        const answer = (bytes: Buffer, stream?: Readable) =>
          new TestResponse(
            // What came over the wire, as the response object a test may inspect (`response.response`).
            new HttpResponse(bytes, { status: incoming.statusCode ?? 0 }),
            headersOf(incoming),
            bytes,
            stream,
            stream === undefined ? undefined : () => outgoing.destroy(),
          );
        const status = incoming.statusCode ?? 0;
        if (incoming.headers["content-type"]?.startsWith("text/event-stream")) {
          // The events read through a stream of the test's own: a connection cut before the end
          // fails it as in process, and one the test closed is no error of the test's.
          const received = new PassThrough();
          incoming.on("error", (error) => received.destroy(cutOff(status, error)));
          incoming.pipe(received);
          resolve(answer(Buffer.alloc(0), received));
          return;
        }
        const chunks: Buffer[] = [];
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
        incoming.on("end", () => resolve(answer(Buffer.concat(chunks))));
        incoming.on("error", (error) => reject(cutOff(status, error)));
      },
    );
    outgoing.on("error", reject);
    outgoing.end(encoded.body);
  });
}

/** The answer's headers as the in-process client gives them: each line, repeated ones appended. */
function headersOf(incoming: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!);
  return headers;
}
