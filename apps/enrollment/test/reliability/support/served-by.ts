// Preloaded (`node --import`) into the service in tests: every answer says which process served it,
// in the header x-served-by, so that a test can see that several workers answered.
import { subscribe } from "node:diagnostics_channel";
import type { ServerResponse } from "node:http";

subscribe("http.server.request.start", (message) => {
  (message as { response: ServerResponse }).response.setHeader("x-served-by", String(process.pid));
});
