import { ValueError } from "../errors.ts";
import type { OpenApiSettings } from "./settings.ts";

/**
 * Refuses, when the app is built, `OPENAPI` settings of the wrong kind or with an unknown key (a
 * `TypeError` naming it, as the other setting groups), and those whose document OpenAPI 3.1 forbids: a tag
 * declared twice in `tags`, or a licence with both an `identifier` and a `url`. A route's tag that
 * is also declared in `tags` is the point of declaring it, and is fine.
 *
 * @example
 * checkOpenApiSettings({ info, tags: [{ name: "students" }, { name: "students" }] });
 * // ValueError: OPENAPI.tags declares the tag "students" twice; declare each tag once.
 */
export function checkOpenApiSettings(settings: OpenApiSettings | undefined): void {
  if (settings === undefined) return;
  checkKinds(settings as unknown as Record<string, unknown>);
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

const KEYS: readonly string[] = [
  "info",
  "servers",
  "tags",
  "externalDocs",
  "allow_public",
  "root_path_in_servers",
];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Refuses, as the other setting groups are refused, `OPENAPI` or a key of it of the wrong kind, and
 * an unknown key: `allow_public: "true"` (a string from the environment) or `allowPublic` would
 * otherwise leave the pages off without a word, and `servers: "/"` fail later as a TypeError of
 * the document's code. Fields inside `info`, `tags` and `externalDocs` that OpenAPI does not define
 * stay accepted, and left out of the document.
 */
function checkKinds(settings: Record<string, unknown>): void {
  // That OPENAPI is an object at all is checkSettingGroups' (app/settings.ts), as for every group.
  for (const key of Object.keys(settings)) {
    if (!KEYS.includes(key)) throw new TypeError(`Unknown OPENAPI setting "${key}"`);
  }
  const wrong = (key: string, kind: string, value: unknown) =>
    new TypeError(`The OPENAPI setting "${key}" must be ${kind}, got ${JSON.stringify(value)}`);
  const { info, servers, tags, externalDocs, allow_public, root_path_in_servers } = settings;
  if (allow_public !== undefined && typeof allow_public !== "boolean") {
    throw wrong("allow_public", "true or false", allow_public);
  }
  if (root_path_in_servers !== undefined && typeof root_path_in_servers !== "boolean") {
    throw wrong("root_path_in_servers", "true or false", root_path_in_servers);
  }
  if (
    info !== undefined &&
    !(isObject(info) && typeof info.title === "string" && typeof info.version === "string")
  ) {
    throw wrong("info", "an object with a string title and version", info);
  }
  if (
    servers !== undefined &&
    !(Array.isArray(servers) && servers.every((server) => isObject(server) && typeof server.url === "string"))
  ) {
    throw wrong("servers", "a list of objects with a string url", servers);
  }
  if (
    tags !== undefined &&
    !(Array.isArray(tags) && tags.every((tag) => isObject(tag) && typeof tag.name === "string"))
  ) {
    throw wrong("tags", "a list of objects with a string name", tags);
  }
  if (externalDocs !== undefined && !(isObject(externalDocs) && typeof externalDocs.url === "string")) {
    throw wrong("externalDocs", "an object with a string url", externalDocs);
  }
}
