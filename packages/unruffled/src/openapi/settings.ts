/** `OPENAPI` settings: what the document says about the API, and whether the pages are served. */
export interface OpenApiSettings {
  info: { title: string; version: string; description?: string };
  servers?: { url: string; description?: string }[];
  /** True serves `/openapi/docs`, `/openapi/redoc` and `/openapi/openapi.json`. */
  allow_public?: boolean;
}
