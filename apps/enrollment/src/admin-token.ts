import { randomBytes } from "node:crypto";
import { link, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { dialectOf } from "./db/index.ts";

/** The token that opens the write endpoints outside the seed (`student-create`, `course-create`). */
export interface AdminToken {
  /** undefined when there is none: those endpoints then refuse every request with 401. */
  token: string | undefined;
  /** Where it came from, for the start-up line. */
  source: "environment" | "generated" | "file" | "none";
  /** The file that keeps a generated token. */
  file?: string;
}

/**
 * The admin token: `ENROLL_ADMIN_TOKEN`, or, on the embedded SQLite database, the token kept in its
 * data folder (`admin-token` beside the database file), made at the first start; each worker of a
 * first start reads the same one. On PostgreSQL without the variable there is none: hosts sharing
 * the database could not share a file.
 *
 * @example await adminToken(process.env, "apps/enrollment/data/enrollment.db")
 */
export async function adminToken(
  env: Record<string, string | undefined>,
  databaseUrl: string,
): Promise<AdminToken> {
  const given = env.ENROLL_ADMIN_TOKEN;
  if (given !== undefined && given !== "") return { token: given, source: "environment" };
  if (dialectOf(databaseUrl) !== "sqlite" || databaseUrl === ":memory:")
    return { token: undefined, source: "none" };
  const file = join(dirname(resolve(databaseUrl)), "admin-token");
  const kept = await readToken(file);
  if (kept !== undefined) return { token: kept, source: "file", file };
  const made = randomBytes(24).toString("base64url");
  // Written aside, then linked into place: linking fails if a worker got there first, and nobody
  // ever reads a half-written file.
  const aside = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  await mkdir(dirname(file), { recursive: true });
  await writeFile(aside, `${made}\n`, { mode: 0o600 });
  try {
    await link(aside, file);
    return { token: made, source: "generated", file };
  } catch (error) {
    if ((error as { code?: string }).code !== "EEXIST") throw error;
    return { token: (await readToken(file))!, source: "file", file };
  } finally {
    await rm(aside, { force: true });
  }
}

async function readToken(file: string): Promise<string | undefined> {
  try {
    const token = (await readFile(file, "utf8")).trim();
    return token === "" ? undefined : token;
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return undefined;
    throw error;
  }
}

/** What the start-up line says of the token: the token itself only the once it was made. */
export function describeAdminToken({ token, source, file }: AdminToken): string {
  switch (source) {
    case "environment":
      return "admin token from ENROLL_ADMIN_TOKEN";
    case "generated":
      return `admin token ${token} (made now, kept in ${file})`;
    case "file":
      return `admin token in ${file}`;
    case "none":
      return "student-create and course-create closed: set ENROLL_ADMIN_TOKEN";
  }
}
