import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const register = endpoint({
  params: {
    name: p.Form(z.string()),
    age: p.Form(z.int().optional()),
    city: p.Form(z.string(), { default: "Paris" }),
    ref: p.Query(z.int().optional()),
  },
  returns: JsonResponse,
  handler: (_request, params) => new JsonResponse(params),
});

export const app = createApp({ routes: [path("/register", { endpoint: register, methods: ["POST"] })] });
