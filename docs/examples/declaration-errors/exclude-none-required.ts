import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

// `nickname` may be null but is required: leaving it out would give an answer the model refuses.
const Student = z.object({ id: z.int(), nickname: z.string().nullable() });

const getStudent = endpoint({
  returns: [p.ResponseSpec({ model: Student, exclude_none: true })],
  handler: () => new JsonResponse({ id: 1, nickname: null }),
});

export const app = createApp({ routes: [path("/student", { endpoint: getStudent, name: "get_student" })] });
