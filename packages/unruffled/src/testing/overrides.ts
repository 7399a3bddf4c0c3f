import type { App } from "../app/app.ts";
import type { CheckedOverrides, DependencyOverride } from "../route/declare/overrides.ts";

/**
 * The app to call: itself, or a copy with the overrides in place. The overrides were checked where
 * the test gave them (`testClient`'s and `startServer`'s options are `CheckedOverrides` too).
 */
export function withOverrides(app: App, overrides: readonly DependencyOverride[] | undefined): App {
  if (overrides === undefined || overrides.length === 0) return app;
  return app.withOverrides(overrides as CheckedOverrides<readonly DependencyOverride[]>);
}
