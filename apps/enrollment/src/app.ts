import { type App, createApp, type Settings } from "unruffled";
import type { Database } from "./db/index.ts";
import { errorEnvelopes, type InternalErrorLog } from "./error-envelopes.ts";
import { enrollRequestClass } from "./request.ts";
import { routes } from "./routes.ts";

export const settings: Settings = {
  OPENAPI: {
    info: {
      title: "Enrollment API",
      version: "1.0.0",
      description:
        "Students, courses and enrolments. Every answer under /api/enroll is HTTP 200 with { code, message, data }; code 0 means success.",
    },
    servers: [{ url: "/", description: "This server" }],
    allow_public: true,
  },
};

/** How the service is built beside its database. */
export interface EnrollmentAppOptions {
  settings?: Settings;
  log?: InternalErrorLog;
  onClose?: () => Promise<void>;
  /** The bearer token of `student-create` and `course-create`; without one they answer 401. */
  adminToken?: string | undefined;
}

/**
 * The enrollment service on an open database. Internal errors go to `log`, by default the pino
 * logger of the `LOGGING` settings (also the access log); `onClose` runs after `app.close()`.
 * @example const app = createEnrollmentApp(await openDatabase(), { adminToken }); await app.listen({ port: 8000 });
 */
export function createEnrollmentApp(database: Database, options: EnrollmentAppOptions = {}): App {
  // Without `log`, internal errors go to the app's own logger, made (and pino loaded) when first needed.
  const log = options.log ?? { error: (details, message) => app.logger.error(details, message) };
  const app = createApp({
    settings: { ...settings, ...options.settings },
    routes,
    exceptionHandlers: errorEnvelopes(log),
    requestClass: enrollRequestClass(database, options.adminToken),
    logger: options.log,
    onClose: options.onClose,
  });
  return app;
}
