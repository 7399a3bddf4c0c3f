/** The variables the enrollment service (and `unruffled serve`) read as configuration. */
export const SERVICE_VARIABLES = [
  "ENROLL_ADMIN_TOKEN",
  "DATABASE_URL",
  "CORS_ORIGINS",
  "JWT_SECRET",
  "HOST",
  "PORT",
  "WORKERS",
  "LOG_LEVEL",
  "SHUTDOWN_TIMEOUT_MS",
] as const;
