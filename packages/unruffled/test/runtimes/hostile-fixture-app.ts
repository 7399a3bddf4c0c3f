// The app the hostile-client suite serves with `unruffled serve` on Node, Bun and Deno: the fuzzing
// target of test/reliability (every marker kind, small limits), an endless event stream, and
// `/state`, where the server's side is read back (what reached the 500 fallback, whether a
// prototype changed, which streams are open), since the test runs in another process.
import { createApp } from "unruffled";
import { EventStreamResponse, type HttpRequest, JsonResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";
import { everyMarker, hostileLimits } from "../reliability/hostile-app.ts";

const prototypeNames = () =>
  JSON.stringify(
    [Object.prototype, Array.prototype, Function.prototype].map((of) =>
      Object.getOwnPropertyNames(of).sort(),
    ),
  );
const prototypesBefore = prototypeNames();

/** What reached the 500 fallback (the app's logger's errors). */
const errors: string[] = [];
/** Event streams whose generator has not ended yet; and those that ended. */
let streamsOpen = 0;
let streamsEnded = 0;

const ticks = endpoint({
  returns: EventStreamResponse,
  handler: (request: HttpRequest) => {
    async function* source() {
      streamsOpen++;
      try {
        yield { data: "first" };
        // Endless until the client leaves: the stream's end is the client's doing.
        await new Promise<void>((resolve) => {
          if (request.signal.aborted) resolve();
          request.signal.addEventListener("abort", () => resolve(), { once: true });
        });
      } finally {
        streamsOpen--;
        streamsEnded++;
      }
    }
    return new EventStreamResponse(source(), { heartbeat: 60_000 });
  },
});

const state = endpoint({
  returns: JsonResponse,
  handler: () =>
    new JsonResponse({
      errors,
      prototypesChanged: prototypeNames() !== prototypesBefore,
      polluted: ({} as Record<string, unknown>).polluted !== undefined,
      streamsOpen,
      streamsEnded,
    }),
});

export const app = createApp({
  routes: [
    path("/items/{item_id}", { endpoint: everyMarker.read, methods: ["GET"] }),
    path("/json", { endpoint: everyMarker.json, methods: ["POST"] }),
    path("/form", { endpoint: everyMarker.form, methods: ["POST"] }),
    path("/upload", { endpoint: everyMarker.upload, methods: ["POST"] }),
    path("/ticks", { endpoint: ticks }),
    path("/state", { endpoint: state }),
  ],
  settings: { LIMITS: hostileLimits, LOGGING: { access_log: false } },
  logger: {
    error: (details, message) => {
      const err = details.err as Error | string | undefined;
      const what = typeof err === "object" ? `${err.name}: ${err.message}` : String(err);
      errors.push(`${message}: ${what}`);
    },
  },
});
