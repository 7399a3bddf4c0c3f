// Fastify 5 reduced to the routes the comparisons measure (hello, list, bind, the 100-row list), with
// their schemas and the 422 error handler every server has: fastify-app.ts without its two parts.
import { serveFastify } from "./fastify-app.ts";

await serveFastify({ scope: false, secure: false });
