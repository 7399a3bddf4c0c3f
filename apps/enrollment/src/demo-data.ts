import { type Database, sqlBoolean } from "./db/index.ts";
import { BusinessError, bindCourse, type CourseCreate, type StudentCreate } from "./services.ts";

const studentNames = [
  "Ann Lee",
  "Bruno Costa",
  "Chloé Martin",
  "David Kim",
  "Elena Petrova",
  "Farid Haddad",
  "Grace Okafor",
  "Hiro Tanaka",
  "Isabel Romero",
  "Jonas Berg",
  "Kavya Iyer",
  "Liam O'Brien",
  "Mei Chen",
  "Noah Schmidt",
  "Olivia Brown",
  "Pedro Alves",
  "Qi Zhang",
  "Rosa Díaz",
  "Samir Khan",
  "Tara Nguyen",
  "Umar Farouk",
  "Vera Novak",
  "William Scott",
  "Ximena Cruz",
  "Yusuf Demir",
  "Zoe Adams",
  "Åsa Lindqvist",
  "Émile Laurent",
  "Ingrid Holm",
  "Jamal Carter",
];

/** 30 students, numbered S2025001..S2025030; a few names have accents, to try the search on. */
export const demoStudents: StudentCreate[] = studentNames.map((name, index) => ({
  name,
  email: `${asciiSlug(name)}@example.edu`,
  age: 18 + ((index * 7) % 9),
  student_id: `S2025${String(index + 1).padStart(3, "0")}`,
}));

/** 8 courses: HIST210 ends up full and ART105 is inactive, so both 422 cases can be tried. */
export const demoCourses: Required<CourseCreate>[] = [
  course("CS101", "Introduction to Programming", "Variables, loops, functions and tests.", 4, 40),
  course("CS201", "Data Structures", "Lists, trees, hash tables and their costs.", 4, 30),
  course("CS340", "Databases", "Relational design, SQL and transactions.", 3, 25),
  course("MATH150", "Calculus I", "Limits, derivatives and integrals.", 4, 50),
  course("MATH220", "Linear Algebra", "Vectors, matrices and linear maps.", 3, 35),
  course("PHYS101", "Physics I", "Mechanics and energy.", 4, 40),
  course("HIST210", "History of Science", "A seminar with four seats.", 2, 4),
  { ...course("ART105", "Drawing Studio", "Not offered this term.", 2, 15), is_active: false },
];

/** Who takes what, as [student number, course code]; 71 pairs that fit every course's seats. */
export const demoEnrollments: [string, string][] = demoStudents.flatMap((student, i) => {
  const codes = [
    i < 20 && "CS101",
    i >= 10 && i < 18 && "CS201",
    i % 3 === 0 && "CS340",
    i % 2 === 0 && "MATH150",
    i % 5 === 2 && "MATH220",
    i % 4 === 1 && "PHYS101",
    i < 4 && "HIST210",
  ].filter((code) => code !== false);
  return codes.map((code): [string, string] => [student.student_id, code]);
});

/** How many rows a load added; all zero when the demo data was already there. */
export interface DemoLoadResult {
  students: number;
  courses: number;
  enrollments: number;
}

/**
 * Adds the demo students, courses and enrolments that are missing; safe to run again and again.
 * @example await loadDemoData(await openDatabase()) // { students: 30, courses: 8, enrollments: 71 }
 */
export async function loadDemoData(database: Database): Promise<DemoLoadResult> {
  const now = new Date().toISOString();
  const students = await database.kysely
    .insertInto("students")
    .values(demoStudents.map((student) => ({ ...student, created_at: now, updated_at: now })))
    .onConflict((conflict) => conflict.doNothing())
    .executeTakeFirst();
  const courses = await database.kysely
    .insertInto("courses")
    .values(
      demoCourses.map((course) => ({
        ...course,
        is_active: sqlBoolean(course.is_active),
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict((conflict) => conflict.doNothing())
    .executeTakeFirst();
  return {
    students: Number(students.numInsertedOrUpdatedRows ?? 0n),
    courses: Number(courses.numInsertedOrUpdatedRows ?? 0n),
    enrollments: await enrolDemoStudents(database),
  };
}

// Through bindCourse, so the demo enrolments obey the same rules as the API's.
async function enrolDemoStudents(database: Database): Promise<number> {
  const studentIds = new Map(
    (await database.kysely.selectFrom("students").select(["id", "student_id"]).execute()).map((row) => [
      row.student_id,
      row.id,
    ]),
  );
  const courseIds = new Map(
    (await database.kysely.selectFrom("courses").select(["id", "code"]).execute()).map((row) => [
      row.code,
      row.id,
    ]),
  );
  let added = 0;
  for (const [studentNumber, code] of demoEnrollments) {
    try {
      await bindCourse(database, studentIds.get(studentNumber)!, courseIds.get(code)!);
      added += 1;
    } catch (error) {
      const alreadyThere = error instanceof BusinessError && error.code === 409;
      if (!alreadyThere) {
        throw error;
      }
    }
  }
  return added;
}

function course(
  code: string,
  name: string,
  description: string,
  credits: number,
  maxStudents: number,
): Required<CourseCreate> {
  return { code, name, description, credits, max_students: maxStudents, is_active: true };
}

// "Chloé Martin" -> "chloe.martin", "Liam O'Brien" -> "liam.obrien"
function asciiSlug(name: string): string {
  return name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z ]/g, "")
    .replace(/ /g, ".");
}
