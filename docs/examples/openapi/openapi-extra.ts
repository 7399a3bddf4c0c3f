import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";

// Reads its body itself, so no parameter tells the document what it takes.
const magicDataReader = endpoint({
  returns: JsonResponse,
  handler: async (request) => new JsonResponse(await request.json()),
});

export const app = createApp({
  routes: [
    path("/items", {
      endpoint: magicDataReader,
      methods: ["POST"],
      name: "magic_data_reader",
      openapiExtra: {
        "x-aperture-labs-portal": "blue",
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["name", "price"],
                properties: { name: { type: "string" }, price: { type: "number" } },
              },
            },
          },
        },
        responses: { "200": { description: "The item, as read" } },
      },
    }),
  ],
});
