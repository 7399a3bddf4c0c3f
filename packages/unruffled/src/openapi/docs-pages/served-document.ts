import type { OpenApiDocument } from "../types.ts";

// A trusted proxy names few prefixes: past this many, a document is made per request, not kept.
const KEPT_PREFIXES = 16;

/**
 * The document as `/openapi/openapi.json` serves it under a root path: that path as its first
 * server (FastAPI's `root_path_in_servers`), so that Swagger UI's "Try it out" reaches the app
 * through the proxy; not again when the app's own servers already name it. Each text made once.
 *
 * @example new ServedDocuments(document, true).json("/api/v1") // '{"openapi":"3.1.1",…,"servers":[{"url":"/api/v1"}]…'
 */
export class ServedDocuments {
  private readonly document: OpenApiDocument;
  private readonly rootPathInServers: boolean;
  private readonly plain: string;
  private readonly byRootPath = new Map<string, string>();

  constructor(document: OpenApiDocument, rootPathInServers: boolean) {
    this.document = document;
    this.rootPathInServers = rootPathInServers;
    this.plain = JSON.stringify(document);
  }

  /** The JSON text served under `rootPath` ("" for none). */
  json(rootPath: string): string {
    if (rootPath === "" || !this.rootPathInServers) return this.plain;
    const kept = this.byRootPath.get(rootPath);
    if (kept !== undefined) return kept;
    const servers = this.document.servers ?? [];
    const text = servers.some((server) => server.url === rootPath)
      ? this.plain
      : JSON.stringify(withServers(this.document, [{ url: rootPath }, ...servers]));
    if (this.byRootPath.size < KEPT_PREFIXES) this.byRootPath.set(rootPath, text);
    return text;
  }
}

// `servers` where the generator puts it (after info), so the served text reads as the generated one.
function withServers(document: OpenApiDocument, servers: OpenApiDocument["servers"]): OpenApiDocument {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document)) {
    if (key === "servers") continue;
    result[key] = value;
    if (key === "info") result.servers = servers;
  }
  if (!("servers" in result)) result.servers = servers;
  return result as unknown as OpenApiDocument;
}
