import { createApp } from "unruffled";
import type { UploadFile } from "unruffled/file";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const describe = async (file: UploadFile) => ({
  name: file.filename,
  type: file.contentType,
  size: file.size,
  text: await file.text(),
});

const submitHomework = endpoint({
  params: {
    report: p.File({ maxSize: 64, description: "The report, at most 64 bytes" }),
    attachments: p.File({ list: true, optional: true }),
    student_id: p.Form(z.int()),
    comment: p.Form(z.string(), { default: "" }),
  },
  returns: JsonResponse,
  handler: async (_request, { report, attachments, student_id, comment }) =>
    new JsonResponse({
      student_id,
      comment,
      report: await describe(report),
      attachments: await Promise.all(attachments.map(describe)),
    }),
});

export const app = createApp({
  settings: { LIMITS: { files: 3 } },
  routes: [path("/homework", { endpoint: submitHomework, methods: ["POST"] })],
});
