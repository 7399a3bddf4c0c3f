import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const Pet = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("cat"), lives: z.int() }),
  z.object({ kind: z.literal("dog"), good: z.boolean() }),
]);

// A union of models has no fixed fields: it is the whole body.
const addPet = endpoint({
  params: { pet: p.Json(Pet) },
  returns: JsonResponse,
  handler: (_request, { pet }) => new JsonResponse(pet, { status: 201 }),
});

// So is a record: any names, each with a price.
const setPrices = endpoint({
  params: { prices: p.Json(z.record(z.string(), z.number().nonnegative())) },
  returns: JsonResponse,
  handler: (_request, { prices }) => new JsonResponse({ items: Object.keys(prices).length }),
});

export const app = createApp({
  routes: [
    path("/pets", { endpoint: addPet, methods: ["POST"] }),
    path("/prices", { endpoint: setPrices, methods: ["PUT"] }),
  ],
});
