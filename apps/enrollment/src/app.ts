import { type App, type CorsOrigins, compression, cors, createApp, type Settings } from "unruffled";
import { postgresPubSub } from "unruffled/pubsub";
import { type Database, dialectOf, openDatabase, pingDatabase } from "./db/index.ts";
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
  /** Where internal errors go (default: the app's pino logger, which also writes the access log). */
  log?: InternalErrorLog;
  /** Runs after `app.close()`, once the app's own database (if it opened one) is closed. */
  onClose?: () => Promise<void>;
  /** The browser pages that may call the API (CORS): origins, or `"*"`; none by default. */
  corsOrigins?: CorsOrigins;
  /** The bearer token of `student-create` and `course-create`; without one they answer 401. */
  adminToken?: string | undefined;
  /** How long SIGTERM keeps serving after readiness turned 503 (default: the framework's, 5 s). */
  drainDelayMs?: number | undefined;
}

/**
 * The enrollment service. Given a database URL, the app opens the database when it starts (its
 * `onStartup`, before it accepts a connection, so a database out of reach stops the start) and
 * closes it when it closes. Given an open database, as tests do, it serves that one and leaves it
 * open. Answers are compressed, and pages on `corsOrigins` may call it. Seat changes go through
 * `app.pubsub`: PostgreSQL `LISTEN/NOTIFY` on PostgreSQL, and on SQLite the default (across the
 * workers under `--workers N`, else within the process); an open database brings its own.
 *
 * @example const app = createEnrollmentApp(process.env.DATABASE_URL); await app.listen({ port: 8000 });
 */
export function createEnrollmentApp(database: Database | string, options: EnrollmentAppOptions = {}): App {
  const url = typeof database === "string" ? database : undefined;
  let opened = typeof database === "string" ? undefined : database;
  const current = () => {
    if (opened === undefined)
      throw new Error("The database is not open yet: start the app first (listen()).");
    return opened;
  };
  // Without `log`, internal errors go to the app's own logger, made (and pino loaded) when first needed.
  const log = options.log ?? { error: (details, message) => app.logger.error(details, message) };
  const app = createApp({
    settings: { ...settings, ...options.settings },
    routes,
    middleware: [
      cors({ origins: options.corsOrigins ?? [], exposeHeaders: ["x-request-id"] }),
      compression(),
    ],
    exceptionHandlers: errorEnvelopes(log),
    requestClass: enrollRequestClass(current, options.adminToken, options.corsOrigins),
    logger: options.log,
    // /readyz answers 503 while the database does not answer, /livez whatever it does.
    health: {
      checks: { database: () => pingDatabase(current()) },
      ...(options.drainDelayMs !== undefined && { drainDelayMs: options.drainDelayMs }),
    },
    // On SQLite, the app's default broker; its log is the app's (a gap is one warn record).
    pubsub:
      url !== undefined && dialectOf(url) === "postgres"
        ? postgresPubSub({
            connectionString: url,
            log: {
              warn: (details, message) => app.logger.warn(details, message),
              error: (details, message) => log.error(details, message),
            },
          })
        : undefined,
    onStartup:
      url === undefined
        ? undefined
        : async function connectDatabase() {
            opened = await openDatabase(url, {
              pubsub: app.pubsub,
              // debug: the service's info output is its access log, which tools and tests read.
              onMigrated: (migrations) => app.logger.debug({ migrations }, "Applied migrations"),
            });
          },
    onClose: async () => {
      if (url !== undefined) {
        await opened?.close();
        opened = undefined;
      }
      await options.onClose?.();
    },
  });
  return app;
}
