import { type IncomingHttpHeaders, request } from "node:http";

/** An answer as the wire carried it: chunked framing undone, but not decompressed (fetch would). */
export interface WireAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Sends one request with exactly the headers given (fetch adds its own `Accept-Encoding` and
 * decompresses), and reads the whole answer.
 *
 * @example const answer = await wireRequest(server.url, "GET", "/items", { "accept-encoding": "gzip" });
 */
export function wireRequest(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(new URL(path, base), { method, headers, agent: false }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () =>
        resolve({ status: incoming.statusCode!, headers: incoming.headers, body: Buffer.concat(chunks) }),
      );
      incoming.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

/** The CORS headers of an answer (and its Vary), for one exact comparison. */
export function corsHeadersOf(headers: IncomingHttpHeaders): Record<string, string | undefined> {
  const picked: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith("access-control-") || name === "vary") picked[name] = String(value);
  }
  return picked;
}
