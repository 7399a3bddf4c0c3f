import type { App } from "../app/app.ts";
import type { DependencyLike } from "../route/declare/markers.ts";
import type { DependencyOverride } from "../route/declare/overrides.ts";
import type { SecurityScheme } from "../route/declare/security-scheme.ts";

/**
 * Each override as its original allows it: the replacement must resolve to what the original
 * resolves to (for a scheme, to its principal), so a fake can't hand handlers the wrong type.
 */
export type CheckedOverrides<O extends readonly DependencyOverride[]> = {
  readonly [K in keyof O]: O[K] extends readonly [infer Original, unknown]
    ? Original extends SecurityScheme<infer Principal>
      ? readonly [Original, DependencyLike<Principal>]
      : Original extends DependencyLike<infer Value>
        ? readonly [Original, DependencyLike<Value>]
        : never
    : never;
};

/** The app to call: itself, or a copy with the overrides in place. */
export function withOverrides(app: App, overrides: readonly DependencyOverride[] | undefined): App {
  return overrides === undefined || overrides.length === 0 ? app : app.withOverrides(overrides);
}
