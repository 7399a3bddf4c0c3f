import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const Login = z.object({ username: z.string().min(1), password: z.string().min(8) });

const logIn = endpoint({
  params: { login: p.Form(Login), remember: p.Form(z.boolean(), { default: false }) },
  returns: JsonResponse,
  handler: (_request, { login, remember }) => new JsonResponse({ user: login.username, remember }),
});

export const app = createApp({ routes: [path("/login", { endpoint: logIn, methods: ["POST"] })] });
