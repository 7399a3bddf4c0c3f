import { createApp } from "unruffled";
import { StreamingResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

// Rows as a database cursor gives them, a batch at a time.
async function* enrolmentRows(course: string) {
  yield "student,course";
  for (const student of ["Zoë Adams", "Ann Lee"]) yield `\n${student},${course}`;
}

const exportEnrolments = endpoint({
  params: { course: p.Path(z.string()) },
  returns: StreamingResponse,
  handler: (_request, { course }) =>
    new StreamingResponse(enrolmentRows(course), {
      contentType: "text/csv; charset=utf-8",
      headers: { "content-disposition": `attachment; filename="enrolments.csv"` },
    }),
});

export const app = createApp({
  routes: [
    path("/courses/{course}/enrolments.csv", { endpoint: exportEnrolments, name: "export_enrolments" }),
  ],
});
