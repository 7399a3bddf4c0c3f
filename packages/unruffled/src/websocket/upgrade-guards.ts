import { checkedResponse } from "../http/checked-response.ts";
import type { UpgradeGuard } from "../http/middleware.ts";
import type { HttpRequest } from "../http/request.ts";
import type { HttpResponse } from "../http/response.ts";

/**
 * The middleware's upgrade guards in order, then `proceed`: the first that throws (`refuse`) or
 * returns a response (`answer`) refuses the upgrade, and the others do not run. Synchronous while
 * the guards are; never throws.
 *
 * @example runGuards(route.guards, request, () => admit(request), answer, refuse)
 */
export function runGuards(
  guards: readonly UpgradeGuard[],
  request: HttpRequest,
  proceed: () => void,
  answer: (response: HttpResponse) => void,
  refuse: (error: unknown) => void,
  from = 0,
): void {
  for (let at = from; at < guards.length; at++) {
    const guard = guards[at]!;
    const refused = (verdict: HttpResponse | undefined): boolean => {
      if (verdict === undefined) return false;
      answer(checkedResponse(verdict, `the upgrade guard ${guard.name || "(anonymous)"}`));
      return true;
    };
    try {
      const verdict = guard(request);
      if (verdict instanceof Promise) {
        verdict
          .then(
            (resolved) => refused(resolved) || runGuards(guards, request, proceed, answer, refuse, at + 1),
          )
          .catch(refuse);
        return;
      }
      if (refused(verdict)) return;
    } catch (error) {
      refuse(error);
      return;
    }
  }
  proceed();
}
