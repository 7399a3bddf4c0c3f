import { HtmlResponse, HttpResponse } from "../../http/response.ts";
import { type BuiltRoute, buildRoutes } from "../../route/analyse/build-routes.ts";
import { endpoint } from "../../route/declare/endpoint.ts";
import { path } from "../../route/declare/path.ts";
import { type AsyncApiApp, generateAsyncApi } from "./generate.ts";
import { asyncApiPage } from "./page.ts";

const PAGE_HEADERS = { "cache-control": "no-cache" };

/**
 * `GET /asyncapi.json` (the AsyncAPI 3.0 document of the WebSocket routes) and `GET /asyncapi` (a
 * page that shows it and loads nothing), served like the OpenAPI pages: only with
 * `OPENAPI.allow_public`, and only when the app has a documented WebSocket route. Left out of the
 * OpenAPI document.
 *
 * @example for (const route of asyncApiRoutes(app)) app.register(route);
 */
export function asyncApiRoutes(
  app: AsyncApiApp & { readonly limits: { readonly file_size: number } },
): BuiltRoute[] {
  if (app.settings.OPENAPI?.allow_public !== true) return [];
  if (!app.websocketRoutes.some((route) => route.includeInSchema)) return [];
  // Generated now, so that a mistake in the declarations stops start-up.
  const document = generateAsyncApi(app);
  const json = JSON.stringify(document);
  const page = asyncApiPage(document);
  const routes = [
    path("/asyncapi.json", {
      name: "asyncapi_document",
      endpoint: endpoint({
        returns: HttpResponse,
        handler: () => new HttpResponse(json, { headers: PAGE_HEADERS }, "application/json"),
      }),
    }),
    path("/asyncapi", {
      name: "asyncapi_page",
      endpoint: endpoint({
        returns: HtmlResponse,
        handler: () => new HtmlResponse(page, { headers: PAGE_HEADERS }),
      }),
    }),
  ];
  return buildRoutes([path("/", { routes, includeInSchema: false })], {
    fileSizeLimit: app.limits.file_size,
  });
}
