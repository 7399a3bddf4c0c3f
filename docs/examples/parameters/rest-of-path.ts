import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";
import { z } from "zod";

const readFile = endpoint({
  // The value is what the client sent: check it before it names a file (".." may be in it).
  params: { file_path: z.string().regex(/^(?!.*(^|\/)\.\.(\/|$))/, "no .. segment") },
  returns: JsonResponse,
  handler: (_request, { file_path }) => new JsonResponse({ file_path }),
});

export const app = createApp({
  routes: [path("/files/{file_path:path}", { endpoint: readFile, name: "read_file" })],
});
