// The hostile requests of both hostile-input suites: in process on Node (hostile-input.test.ts here)
// and to `unruffled serve` on Node, Bun and Deno (../runtimes/hostile-input.test.ts). Each is a
// fast-check property that sends its requests through `send`, which checks the answers as its suite
// requires; both suites name their tests after these.
import fc from "fast-check";
import {
  contentType,
  cookieHeader,
  headerValue,
  jsonText,
  multipartBody,
  nastyText,
  percentEncoded,
  urlencoded,
  withInvalidUtf8,
} from "hostile-input";
import { declaredNames } from "./hostile-app.ts";
import { rawRequest } from "./send-raw.ts";

/** Sends one request and checks its answer (a success or a documented client error). */
export type SendChecked = (request: Buffer) => Promise<unknown>;

type HostileProperty = (send: SendChecked) => fc.IAsyncProperty<unknown>;

/** Name → property, in the order the suites run them. */
export const hostileRequests: ReadonlyArray<readonly [string, HostileProperty]> = [
  [
    "query strings: any bytes, bad escapes, prototype keys, odd numbers",
    (send) =>
      fc.asyncProperty(urlencoded(declaredNames.query), async (query) => {
        await send(rawRequest("GET", `/items/1?${query}`, {}));
      }),
  ],
  [
    "paths: hostile placeholder values and raw bytes in the request target",
    (send) =>
      fc.asyncProperty(nastyText(["1", "/", ".."]), fc.uint8Array({ maxLength: 6 }), async (segment, raw) => {
        await send(rawRequest("GET", `/items/${percentEncoded(segment)}`, {}));
        const target = Buffer.concat([
          Buffer.from("/items/"),
          Buffer.from(raw.filter((byte) => byte > 0x20)),
        ]);
        await send(rawRequest("GET", target.toString("latin1"), {}));
      }),
  ],
  [
    "headers: declared ones with hostile values, raw bytes, long values, repeats",
    (send) => {
      const names = declaredNames.header;
      return fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(...names, "x_token", "X-IDS", "__proto__"), headerValue(names)), {
          maxLength: 6,
        }),
        async (headers) => {
          const lines = headers.map(([name, value]) => `${name}: ${value}\r\n`).join("");
          await send(
            Buffer.from(`GET /items/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${lines}\r\n`, "latin1"),
          );
        },
      );
    },
  ],
  [
    "cookies: declared and hostile names, quotes, escapes, duplicates",
    (send) =>
      fc.asyncProperty(cookieHeader(declaredNames.cookie), async (cookie) => {
        await send(rawRequest("GET", "/items/1", { Cookie: cookie }));
      }),
  ],
  [
    "JSON bodies: deep nesting, huge numbers, NaN spellings, duplicate and prototype keys, invalid UTF-8",
    (send) =>
      fc.asyncProperty(
        withInvalidUtf8(jsonText(declaredNames.json)),
        contentType("application/json"),
        async (body, type) => {
          await send(rawRequest("POST", "/json", { "Content-Type": type }, body));
        },
      ),
  ],
  [
    "urlencoded bodies: the same hostile pairs as query strings, and invalid UTF-8",
    (send) =>
      fc.asyncProperty(
        withInvalidUtf8(urlencoded(declaredNames.form)),
        contentType("application/x-www-form-urlencoded"),
        async (body, type) => {
          await send(rawRequest("POST", "/form", { "Content-Type": type }, body));
        },
      ),
  ],
  [
    "multipart bodies: truncated, wrong boundaries, missing part headers, garbage, oversized",
    (send) =>
      fc.asyncProperty(multipartBody(declaredNames.form), async ({ contentType, body }) => {
        await send(rawRequest("POST", "/upload", { "Content-Type": contentType }, body));
        // The form endpoint reads multipart too, without files.
        await send(rawRequest("POST", "/form", { "Content-Type": contentType }, body));
      }),
  ],
];
