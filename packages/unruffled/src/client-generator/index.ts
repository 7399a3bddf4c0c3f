import type { DocumentedApp } from "../openapi/generate.ts";
import type { BuiltWebSocketRoute } from "../websocket/built-route.ts";
import { clientModel } from "./client-model.ts";
import { printClient } from "./print-client.ts";

export { type ClientModel, clientModel, type OperationModel, type SocketModel } from "./client-model.ts";
export { CLIENT_RUNTIME, printClient } from "./print-client.ts";

/**
 * The TypeScript module of a typed client for an app: one member per route, typed from the same
 * JSON Schemas as the app's OpenAPI document, importing only `unruffled/client` at run time.
 *
 * @example writeFileSync("src/client.generated.ts", generateClient(app));
 */
export function generateClient(
  app: DocumentedApp & { readonly websocketRoutes?: readonly BuiltWebSocketRoute[] },
): string {
  return printClient(clientModel(app));
}
