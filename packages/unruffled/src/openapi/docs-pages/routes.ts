import { z } from "zod";
import { NotFoundError } from "../../errors.ts";
import { HtmlResponse, HttpResponse } from "../../http/response.ts";
import { chooseEncoding } from "../../middleware/accept-encoding.ts";
import { type BuiltRoute, buildRoutes } from "../../route/analyse/build-routes.ts";
import { endpoint } from "../../route/declare/endpoint.ts";
import { p } from "../../route/declare/markers.ts";
import { path } from "../../route/declare/path.ts";
import { DEFAULT_INFO, type DocumentedApp, generateOpenApi } from "../generate.ts";
import { loadDocsAsset } from "./assets.ts";
import { redocPage, swaggerUiPage } from "./html.ts";
import { ServedDocuments } from "./served-document.ts";

/** The prefix of the documentation routes. */
export const DOCS_PREFIX = "/openapi";

// Pages and the document change with each deployment, so browsers revalidate; assets change with a package.
const PAGE_HEADERS = { "cache-control": "no-cache" };
const ASSET_HEADERS = { "cache-control": "public, max-age=86400" };
// A text asset is sent gzipped to a client that accepts it (every browser), so caches key on the header.
const GZIPPED_HEADERS = { ...ASSET_HEADERS, "content-encoding": "gzip", vary: "Accept-Encoding" };
const PLAIN_HEADERS = { ...ASSET_HEADERS, vary: "Accept-Encoding" };

// `/openapi/docs/` is the page to a person, but its relative asset URLs would resolve under
// `/openapi/docs/`: a redirect to the slashless path fixes both. The Location is relative too, so it
// stays right behind a proxy that mounts the app under a prefix; 307, as Starlette redirects slashes.
const toPage = (page: string) =>
  endpoint({
    returns: HttpResponse,
    handler: ({ queryString }) =>
      new HttpResponse(null, {
        status: 307,
        headers: { location: `../${page}${queryString === "" ? "" : `?${queryString}`}` },
      }),
  });

/**
 * The documentation routes of an app (`/openapi/docs`, `/openapi/redoc`, `/openapi/openapi.json`
 * and the assets under `/openapi/assets/`; `/openapi/docs/` and `/openapi/redoc/` redirect to their
 * page), built by the framework's own `endpoint()` and `path()`, and left out of the document. None unless `OPENAPI.allow_public` is true, so the paths answer 404.
 *
 * @example
 * for (const route of docsRoutes(app)) app.register(route);
 */
export function docsRoutes(
  app: DocumentedApp & { readonly limits: { readonly file_size: number } },
): BuiltRoute[] {
  const settings = app.settings.OPENAPI;
  if (settings?.allow_public !== true) return [];
  const title = settings.info?.title ?? DEFAULT_INFO.title;
  const swaggerUi = swaggerUiPage(title);
  const redoc = redocPage(title);
  // Generated now, so that a mistake in the declarations (two models with one id) stops start-up.
  const document = generateOpenApi(app);
  const served = new ServedDocuments(document, settings.root_path_in_servers !== false);

  const routes = [
    path("/docs", {
      name: "openapi_swagger_ui",
      endpoint: endpoint({
        returns: HtmlResponse,
        handler: () => new HtmlResponse(swaggerUi, { headers: PAGE_HEADERS }),
      }),
    }),
    path("/redoc", {
      name: "openapi_redoc",
      endpoint: endpoint({
        returns: HtmlResponse,
        handler: () => new HtmlResponse(redoc, { headers: PAGE_HEADERS }),
      }),
    }),
    path("/docs/", { name: "openapi_swagger_ui_slash", endpoint: toPage("docs") }),
    path("/redoc/", { name: "openapi_redoc_slash", endpoint: toPage("redoc") }),
    path("/openapi.json", {
      name: "openapi_document",
      endpoint: endpoint({
        returns: HttpResponse,
        handler(request) {
          return new HttpResponse(
            served.json(request.rootPath),
            { headers: PAGE_HEADERS },
            "application/json",
          );
        },
      }),
    }),
    path("/assets/{name}", {
      name: "openapi_asset",
      endpoint: endpoint({
        params: { name: p.Path(z.string()) },
        returns: HttpResponse,
        async handler(request, { name }) {
          const asset = loadDocsAsset(name);
          if (asset === undefined) throw new NotFoundError(`Not Found: ${request.path}`);
          const { body, contentType, gzip } = await asset;
          if (gzip === undefined) return new HttpResponse(body, { headers: ASSET_HEADERS }, contentType);
          return chooseEncoding(request.headers["accept-encoding"], ["gzip"]) === "gzip"
            ? new HttpResponse(gzip, { headers: GZIPPED_HEADERS }, contentType)
            : new HttpResponse(body, { headers: PLAIN_HEADERS }, contentType);
        },
      }),
    }),
  ];
  return buildRoutes([path(DOCS_PREFIX, { routes, includeInSchema: false })], {
    fileSizeLimit: app.limits.file_size,
  });
}
