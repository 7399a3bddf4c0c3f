import { type Dependency, isDependency } from "./dependency.ts";
import type { DependencyLike } from "./markers.ts";
import type { SecurityScheme } from "./security-scheme.ts";

/**
 * A replacement for a dependency (or an authentication scheme) wherever routes declare it: the
 * replacement must resolve to what the original does.
 */
export type DependencyOverride = readonly [
  original: DependencyLike<any> | SecurityScheme<any>,
  replacement: DependencyLike<any>,
];

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

/** Replacements by what they replace, as the analysis of routes reads them. */
export type Overrides = ReadonlyMap<object, Dependency>;

/**
 * The overrides given as pairs, checked: each a pair whose replacement `dependency()` made.
 *
 * @example overridesOf([[database, dependency({ resolve: () => memoryDb })]])
 */
export function overridesOf(pairs: Iterable<DependencyOverride>): Overrides {
  const replacements = new Map<object, Dependency>();
  for (const entry of pairs) {
    if (!Array.isArray(entry) || entry.length !== 2) {
      throw new TypeError(
        "Each override is a pair: [original dependency or scheme, replacement dependency].",
      );
    }
    const [original, replacement] = entry;
    if (!isDependency(replacement)) {
      throw new TypeError("An override's replacement is a dependency made by dependency({ resolve }).");
    }
    replacements.set(original, replacement);
  }
  return replacements;
}
