import { StartupError } from "unruffled";

/**
 * The one line the service prints, instead of a stack, when where it runs stops it from starting:
 * the port is taken, or the database is not there or refuses it. Any other error is a bug, and
 * keeps its stack (these return `undefined` for it).
 */

// What the operator can do about each, told once.
const LISTEN_ADVICE: Record<string, string> = {
  EADDRINUSE: "another process listens there (EADDRINUSE); set PORT to a free port",
  EACCES: "not allowed (EACCES); a port below 1024 needs privileges, set PORT to a higher one",
  EADDRNOTAVAIL: "HOST is not an address of this machine (EADDRNOTAVAIL); set HOST to one that is",
};

/**
 * @example listenFailure(error, "127.0.0.1", 8000)
 * // "Cannot listen on 127.0.0.1:8000: another process listens there (EADDRINUSE); set PORT to a free port."
 */
export function listenFailure(error: unknown, host: string, port: number): string | undefined {
  const advice = LISTEN_ADVICE[codeOf(error) ?? ""];
  return advice === undefined ? undefined : `Cannot listen on ${host}:${port}: ${advice}.`;
}

// Errors of reaching the database rather than of using it: the network, the file, and PostgreSQL's
// refusals before any statement (08 connection, 28 authorization, 3D000 no such database, 53300
// too many connections, 57P03 starting up).
const UNREACHABLE = /^(E[A-Z]+|08...|28...|3D000|53300|57P03|SQLITE_(CANTOPEN|NOTADB|PERM|READONLY))$/;

/**
 * The line for a database out of reach, also when it stopped the app's start-up (a `StartupError`
 * whose cause it is).
 *
 * @example databaseFailure(error, "postgres://app:secret@db:5432/app")
 * // "Cannot open the database postgres://app@db:5432/app: connect ECONNREFUSED 10.0.0.5:5432; check DATABASE_URL."
 */
export function databaseFailure(error: unknown, url: string): string | undefined {
  if (error instanceof StartupError) return databaseFailure(error.cause, url);
  const code = codeOf(error);
  const timedOut = error instanceof Error && /timeout exceeded when trying to connect/.test(error.message);
  if (!timedOut && (code === undefined || !UNREACHABLE.test(code))) return undefined;
  return `Cannot open the database ${withoutSecrets(url)}: ${reasonOf(error)}; check DATABASE_URL.`;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

// Node's AggregateError (every address of a host refused) has an empty message; its parts do not.
function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && error.message === "") return reasonOf(error.errors[0]);
  return error instanceof Error && error.message !== "" ? error.message : String(codeOf(error) ?? error);
}

// A PostgreSQL URL may carry a password (and options): the line shows user, host, port and database.
function withoutSecrets(url: string): string {
  if (!URL.canParse(url) || !/^postgres(ql)?:$/i.test(new URL(url).protocol)) return url;
  const { protocol, username, host, pathname } = new URL(url);
  return `${protocol}//${username === "" ? "" : `${username}@`}${host}${pathname}`;
}
