import { ValueError } from "../errors.ts";
import type { OpenApiSettings } from "./settings.ts";

/**
 * Refuses, when the app is built, `OPENAPI` settings whose document OpenAPI 3.1 forbids: a tag
 * declared twice in `tags`, or a licence with both an `identifier` and a `url`. A route's tag that
 * is also declared in `tags` is the point of declaring it, and is fine.
 *
 * @example
 * checkOpenApiSettings({ info, tags: [{ name: "students" }, { name: "students" }] });
 * // ValueError: OPENAPI.tags declares the tag "students" twice; declare each tag once.
 */
export function checkOpenApiSettings(settings: OpenApiSettings | undefined): void {
  // Its type already excludes both; settings written in JavaScript, or cast, are not held by it.
  const license = settings?.info?.license as { identifier?: string; url?: string } | undefined;
  if (license?.identifier !== undefined && license.url !== undefined) {
    throw new ValueError(
      `OPENAPI.info.license gives both identifier "${license.identifier}" and url "${license.url}"; OpenAPI 3.1 allows one of them.`,
    );
  }
  const declared = new Set<string>();
  for (const { name } of settings?.tags ?? []) {
    if (declared.has(name)) {
      throw new ValueError(`OPENAPI.tags declares the tag "${name}" twice; declare each tag once.`);
    }
    declared.add(name);
  }
}
