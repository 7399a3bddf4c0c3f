import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";
import { z } from "zod";

const fileMeta = endpoint({
  params: { file_path: z.string() },
  returns: JsonResponse,
  handler: (_request, { file_path }) => new JsonResponse({ file_path }),
});

export const app = createApp({
  routes: [path("/files/{file_path:path}/meta", { endpoint: fileMeta })],
});
