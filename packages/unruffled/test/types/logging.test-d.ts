// Type tests for the logging settings and the request id: checked by `tsc`, never run.
import { createApp, createLogger, type Logger } from "unruffled";
import { PlainTextResponse } from "unruffled/http";
import { endpoint } from "unruffled/route";
import { expectTypeOf } from "vitest";

createApp({ settings: { LOGGING: { level: "info", access_log: false } }, routes: [] });
createApp({ settings: { LOGGING: { destination: { write: (_line: string) => {} } } }, routes: [] });
createApp({ settings: { LOGGING: { destination: 2 } }, routes: [] });
// @ts-expect-error not a pino level
createApp({ settings: { LOGGING: { level: "loud" } }, routes: [] });

// The app's logger is pino's; a pino logger or any `error(details, message)` object may be given.
const app = createApp({ routes: [], logger: createLogger({ level: "debug" }) });
expectTypeOf(app.logger).toEqualTypeOf<Logger>();
createApp({ routes: [], logger: { error: (_details: Record<string, unknown>, _message: string) => {} } });
// @ts-expect-error a logger needs an error method
createApp({ routes: [], logger: { warn: () => {} } });

// Handlers read the request id.
endpoint({
  returns: PlainTextResponse,
  handler(request) {
    expectTypeOf(request.id).toEqualTypeOf<string>();
    return new PlainTextResponse(request.id);
  },
});
