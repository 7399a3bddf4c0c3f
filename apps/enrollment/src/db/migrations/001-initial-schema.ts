import type { ColumnDefinitionBuilder, Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { DialectName } from "../dialect.ts";

/** Students, courses and the enrolments between them. */
export function initialSchema(dialect: DialectName): Migration {
  // The one dialect difference: how an integer primary key gets its values.
  const autoId = (column: ColumnDefinitionBuilder) =>
    dialect === "postgres"
      ? column.primaryKey().generatedByDefaultAsIdentity()
      : column.primaryKey().autoIncrement();

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("students")
        .addColumn("id", "integer", autoId)
        .addColumn("name", "varchar(100)", (c) => c.notNull())
        .addColumn("email", "varchar(254)", (c) => c.notNull())
        .addColumn("age", "integer", (c) => c.notNull())
        .addColumn("student_id", "varchar(20)", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .addUniqueConstraint("students_email_unique", ["email"])
        .addUniqueConstraint("students_student_id_unique", ["student_id"])
        .execute();

      await db.schema
        .createTable("courses")
        .addColumn("id", "integer", autoId)
        .addColumn("name", "varchar(200)", (c) => c.notNull())
        .addColumn("code", "varchar(20)", (c) => c.notNull())
        .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("credits", "integer", (c) => c.notNull().defaultTo(3))
        .addColumn("max_students", "integer", (c) => c.notNull().defaultTo(50))
        .addColumn("is_active", "boolean", (c) => c.notNull().defaultTo(true))
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .addUniqueConstraint("courses_code_unique", ["code"])
        .execute();

      await db.schema
        .createTable("enrollments")
        .addColumn("id", "integer", autoId)
        .addColumn("student_id", "integer", (c) => c.notNull().references("students.id").onDelete("cascade"))
        .addColumn("course_id", "integer", (c) => c.notNull().references("courses.id").onDelete("cascade"))
        .addColumn("created_at", "text", (c) => c.notNull())
        // The last guard against storing a pair twice, whatever the application does.
        .addUniqueConstraint("enrollments_student_course_unique", ["student_id", "course_id"])
        .execute();

      // Bind counts a course's enrolments on every call.
      await db.schema
        .createIndex("enrollments_course_id_index")
        .on("enrollments")
        .column("course_id")
        .execute();
    },

    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("enrollments").execute();
      await db.schema.dropTable("courses").execute();
      await db.schema.dropTable("students").execute();
    },
  };
}
