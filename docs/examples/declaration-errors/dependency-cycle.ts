import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { type Dependency, dependency, endpoint, p, path } from "unruffled/route";
import { z } from "zod";

// A getter lets "user" name "session" before it exists: TypeScript accepts the cycle, the app does not.
const user: Dependency<any, any, { name: string }> = dependency({
  name: "user",
  params: {
    get session() {
      return p.Depends(session);
    },
  },
  resolve: () => ({ name: "ann" }),
});

const session = dependency({
  name: "session",
  params: { user: p.Depends(user), token: p.Cookie(z.string()) },
  resolve: (_request, { token }) => ({ token }),
});

const me = endpoint({
  params: { user: p.Depends(user) },
  returns: JsonResponse,
  handler: (_request, { user }) => new JsonResponse({ user }),
});

export const app = createApp({ routes: [path("/me", { endpoint: me, name: "me" })] });
