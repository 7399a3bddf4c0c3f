import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * One student per email whatever its case: `Ann@Example.edu` is `ann@example.edu`. Emails are ASCII
 * (the schema's email format), so `lower()` folds them alike on SQLite and PostgreSQL.
 */
export const emailAnyCase: Migration = {
  async up(db: Kysely<unknown>) {
    // Stored emails that differ only in case would stop the index: say which, rather than a bare constraint error.
    const { rows } = await sql<{ email: string }>`
      select lower(email) as email from students group by lower(email) having count(*) > 1 order by 1`.execute(
      db,
    );
    if (rows.length > 0) {
      const emails = rows.map((row) => row.email).join(", ");
      throw new Error(
        `Students share an email in different case (${emails}); make them unique, then start again`,
      );
    }
    await db.schema
      .createIndex("students_email_lower_unique")
      .on("students")
      .unique()
      .expression(sql`lower(email)`)
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex("students_email_lower_unique").execute();
  },
};
