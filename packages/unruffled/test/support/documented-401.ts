// The 401 the OpenAPI document gives an operation that a security scheme guards, as written out in
// full: the tests of schemes and of app-wide dependencies compare with this one object.
export const DOCUMENTED_401 = {
  description: "Not authenticated",
  headers: {
    "WWW-Authenticate": {
      description: "The authentication scheme to use, and why the credentials failed",
      schema: { type: "string" },
    },
  },
  content: { "application/json": { schema: { $ref: "#/components/schemas/HTTPError" } } },
};
