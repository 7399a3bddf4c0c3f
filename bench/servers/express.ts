// Express 5 with Zod validation (safeParse in the handler) and express.json() for the body.
import express, { type NextFunction, type Request, type Response } from "express";
import { z } from "zod";
import { STUDENT_ROWS, StudentPage } from "./student-rows.ts";

const ListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(10),
});

const BindRequest = z.object({
  student_id: z.int().gt(0),
  course_id: z.int().gt(0),
});

function detail(error: z.ZodError, where: string) {
  return {
    detail: error.issues.map((issue) => ({
      loc: [where, ...issue.path.map(String)],
      msg: issue.message,
    })),
  };
}

const app = express();

app.get("/hello", (_req, res) => {
  res.type("text/plain").send("Hello, World!");
});

app.get("/api/enroll/student-list", (req, res) => {
  const parsed = ListQuery.safeParse(req.query);
  if (!parsed.success) {
    res.status(422).json(detail(parsed.error, "query"));
    return;
  }
  res.json({ code: 0, message: "success", data: [] });
});

function requireToken(req: Request, res: Response, next: NextFunction): void {
  if (req.headers.authorization === "Bearer bench-token") next();
  else res.status(401).set("www-authenticate", "Bearer").json({ detail: "Not authenticated" });
}

app.get("/api/enroll/secure-list", requireToken, (req, res) => {
  const parsed = ListQuery.safeParse(req.query);
  if (!parsed.success) {
    res.status(422).json(detail(parsed.error, "query"));
    return;
  }
  res.json({ code: 0, message: "success", data: [] });
});

app.post("/api/enroll/bind", express.json(), (req, res) => {
  const parsed = BindRequest.safeParse(req.body);
  if (!parsed.success) {
    res.status(422).json(detail(parsed.error, "body"));
    return;
  }
  const { student_id, course_id } = parsed.data;
  res.json({
    code: 0,
    message: `Student ${student_id} bound to course ${course_id}`,
    data: { student_id, course_id },
  });
});

// Zod's parse leaves the rows' password hash out.
app.get("/api/enroll/students", (_req, res) => {
  res.json(StudentPage.parse({ code: 0, message: "success", data: STUDENT_ROWS }));
});

// body-parser errors (malformed JSON: 400, too large: 413) as JSON instead of the HTML page.
app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
  const status =
    typeof error === "object" && error !== null && "status" in error && typeof error.status === "number"
      ? error.status
      : 500;
  const message = status < 500 && error instanceof Error ? error.message : "Internal Server Error";
  res.status(status).json({ detail: message });
});

const server = app.listen(Number(process.env.PORT ?? 0), "127.0.0.1", (error?: Error) => {
  if (error) throw error;
  const address = server.address();
  console.log(`listening ${typeof address === "object" && address !== null ? address.port : 0}`);
});
