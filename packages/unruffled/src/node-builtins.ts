// The parts of Node's built-in modules the framework uses, taken with `process.getBuiltinModule`
// rather than `import … from "node:…"`. An ES import of a built-in builds its namespace by reading
// every export, which runs Node's lazy getters: `node:http` then loads undici (for `http.WebSocket`),
// http2, zlib and worker_threads, and `node:util` loads worker_threads and the diff engine. A fresh
// process that ES-imports http, util, crypto and fs/promises holds 58 MB; taking them this way, 48 MB.
// Types still come from `import type`, which costs nothing at run time (test/app/footprint.test.ts).
import type * as NodeStream from "node:stream";

export const {
  createServer,
  request: httpRequest,
  STATUS_CODES,
  validateHeaderName,
  validateHeaderValue,
} = process.getBuiltinModule("node:http");
/** `node:https` on first use: only a test client with an https `baseUrl` loads it. */
export const https = () => process.getBuiltinModule("node:https");
export const { randomBytes } = process.getBuiltinModule("node:crypto");
export const { existsSync, readFileSync } = process.getBuiltinModule("node:fs");
export const { createRequire } = process.getBuiltinModule("node:module");
export const { dirname, join, resolve } = process.getBuiltinModule("node:path");
export const { parse: parseQueryString } = process.getBuiltinModule("node:querystring");
export const { pathToFileURL } = process.getBuiltinModule("node:url");
export const { isDeepStrictEqual, parseArgs } = process.getBuiltinModule("node:util");

/** `node:fs/promises` on first use: even taken this way it loads readline and the REPL history. */
export const fsPromises = () => process.getBuiltinModule("node:fs/promises");

/** `node:zlib` on first use: only an app that compresses loads it. */
export const zlib = () => process.getBuiltinModule("node:zlib");

export const { finished, PassThrough, pipeline, Readable } = process.getBuiltinModule("node:stream");
export type Readable = NodeStream.Readable;
