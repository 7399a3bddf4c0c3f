import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const report = endpoint({
  params: {
    page: p.Query(z.int(), { default: 1 }),
    price: p.Query(z.number().optional()),
    active: p.Query(z.boolean().optional()),
    ids: p.Query(z.array(z.int()), { default: [] }),
    level: p.Query(z.union([z.literal(1), z.literal(2), z.literal("max")]).optional()),
  },
  returns: JsonResponse,
  handler: (_request, params) => new JsonResponse(params),
});

export const app = createApp({ routes: [path("/report", { endpoint: report })] });
