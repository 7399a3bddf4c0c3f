import type { ExternalDocumentationObject, InfoObject, TagObject } from "./types.ts";

/** `OPENAPI` settings: what the document says about the API, and whether the pages are served. */
export interface OpenApiSettings {
  /** The document's `info`: `title`, `version`, and any of `summary`, `description`, `termsOfService`, … */
  info: InfoObject;
  servers?: { url: string; description?: string }[];
  /** The document's top-level `tags`, each name once, in the order the pages show them. */
  tags?: TagObject[];
  /** The document's `externalDocs`: where more documentation is. */
  externalDocs?: ExternalDocumentationObject;
  /** True serves `/openapi/docs`, `/openapi/redoc` and `/openapi/openapi.json`. */
  allow_public?: boolean;
  /**
   * False leaves the root path (`ROOT_PATH`, a trusted proxy's `X-Forwarded-Prefix`) out of the
   * served document's `servers`; by default it is the first server (FastAPI's `root_path_in_servers`).
   */
  root_path_in_servers?: boolean;
}
