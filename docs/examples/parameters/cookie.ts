import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const cart = endpoint({
  params: {
    session: p.Cookie(z.string().min(8)),
    theme: p.Cookie(z.enum(["light", "dark"]), { default: "light" }),
  },
  returns: JsonResponse,
  handler: (_request, { session, theme }) =>
    new JsonResponse({ session, theme }).setCookie("seen", "1", { httpOnly: true, path: "/" }),
});

export const app = createApp({ routes: [path("/cart", { endpoint: cart })] });
