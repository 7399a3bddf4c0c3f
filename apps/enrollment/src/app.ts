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

/**
 * The enrollment service on an open database.
 * @example const app = createEnrollmentApp(await openDatabase()); await app.listen({ port: 8000 });
 */
export function createEnrollmentApp(
  database: Database,
  options: { settings?: Settings; log?: InternalErrorLog } = {},
): App {
  const log = options.log ?? { error: (details, message) => console.error(message, details) };
  return createApp({
    settings: { ...settings, ...options.settings },
    routes,
    exceptionHandlers: errorEnvelopes(log),
    requestClass: enrollRequestClass(database),
    logger: log,
  });
}
