// The app the request-timeout suite serves with `unruffled serve` on Node and Deno: a 300 ms
// request_timeout, routes that read a JSON body, a multipart upload and the raw body themselves, a
// route that is slow after its body, and `/state`, where the server's side is read back (what was
// logged at error level, reads still pending, pending timers) since the test runs in another process.
import process from "node:process";
import { createApp, exceptionHandler, RequestTimeoutError } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const errors: string[] = [];
/** Reads of the raw body (`request.body()`) that have not ended yet, and how the ended ones ended. */
let pendingReads = 0;
const readOutcomes: string[] = [];
/** Requests of `/raw` whose `request.signal` aborted. */
let signalsAborted = 0;

const Person = z.object({ name: z.string() });

const json = endpoint({
  params: { person: p.Json(Person) },
  returns: JsonResponse,
  handler: (_request, { person }) => new JsonResponse({ person }),
});

const upload = endpoint({
  params: { avatar: p.File(), comment: p.Form(z.string(), { default: "" }) },
  returns: JsonResponse,
  handler: (_request, { avatar, comment }) => new JsonResponse({ file: avatar.filename, comment }),
});

const raw = endpoint({
  returns: JsonResponse,
  handler: async (request) => {
    request.signal.addEventListener("abort", () => signalsAborted++, { once: true });
    pendingReads++;
    try {
      const bytes = await request.body();
      readOutcomes.push("read");
      return new JsonResponse({ length: bytes.length });
    } catch (error) {
      readOutcomes.push((error as Error).name);
      throw error;
    } finally {
      pendingReads--;
    }
  },
});

const slow = endpoint({
  params: { person: p.Json(Person), ms: p.Query(z.int()) },
  returns: JsonResponse,
  handler: async (_request, { person, ms }) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return new JsonResponse({ person, waited: ms });
  },
});

const state = endpoint({
  returns: JsonResponse,
  handler: () =>
    new JsonResponse({
      errors,
      pendingReads,
      readOutcomes,
      signalsAborted,
      timers: process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length,
    }),
});

export const app = createApp({
  routes: [
    path("/json", { endpoint: json, methods: ["POST"] }),
    path("/upload", { endpoint: upload, methods: ["POST"] }),
    path("/raw", { endpoint: raw, methods: ["POST"] }),
    path("/slow", { endpoint: slow, methods: ["POST"] }),
    path("/state", { endpoint: state }),
  ],
  settings: {
    LIMITS: { request_timeout: 300, headers_timeout: 300 },
    LOGGING: { access_log: false },
    ...(process.env.ERRORS_FORMAT === "problem" ? { ERRORS: { format: "problem" as const } } : {}),
  },
  // As on Node, the late body is the server's refusal: the app's exception handlers never see it.
  exceptionHandlers: [
    exceptionHandler(RequestTimeoutError, () => new JsonResponse({ handled: true }, { status: 200 })),
  ],
  logger: {
    error: (details, message) => {
      const err = details.err as Error | string | undefined;
      const what = typeof err === "object" ? `${err.name}: ${err.message}` : String(err);
      errors.push(`${message}: ${what}`);
    },
  },
});
