// The app the generated WebSocket client is made from (socket-client.generated.ts).
import { chatApp } from "../chat-app.ts";

export function socketClientApp() {
  return chatApp({ settings: { OPENAPI: { info: { title: "Chat", version: "1.0.0" } } } }).app;
}
